import { describe, expect, it } from 'vitest'
import { createRateLimit } from '#app/lib/rate-limit.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import {
	collectLimits,
	createCollector,
	normalisePath,
	normaliseReferrer,
	primaryLanguage,
	screenViewSchema,
	screenViewWrite,
} from './collect.server.ts'
import type { ScreenViewBuffer } from './ingest.server.ts'

const siteHost = 'canopy.example:8443'

describe('normalisePath', () => {
	it('keeps the pathname alone and reads the campaign from utm_* (ref as the source)', () => {
		expect(normalisePath('/articles?cursor=abc#top')).toEqual({
			path: '/articles',
			utmSource: '',
			utmMedium: '',
			utmCampaign: '',
		})
		expect(
			normalisePath('/home?utm_source=newsletter&utm_medium=email&utm_campaign=spring%20drive'),
		).toEqual({
			path: '/home',
			utmSource: 'newsletter',
			utmMedium: 'email',
			utmCampaign: 'spring drive',
		})
		expect(normalisePath('/home?ref=producthunt&utm_campaign=launch')).toMatchObject({
			utmSource: 'producthunt',
			utmCampaign: 'launch',
		})
		expect(normalisePath('/home?ref=producthunt&utm_source=mastodon').utmSource).toBe('mastodon')
	})

	it('never lets a path name another host, and clips each campaign field', () => {
		expect(normalisePath('//evil.example/articles').path).toBe('/evil.example/articles')
		expect(normalisePath('/a/../articles/./x').path).toBe('/articles/x')
		const long = 'c'.repeat(collectLimits.campaign + 50)
		expect(normalisePath(`/home?utm_campaign=${long}`).utmCampaign).toHaveLength(
			collectLimits.campaign,
		)
	})
})

describe('normaliseReferrer', () => {
	it('takes a path as the previous page', () => {
		expect(normaliseReferrer('/articles?cursor=x', siteHost)).toEqual({
			previousPath: '/articles',
			referrerHost: '',
		})
	})

	it('takes a URL on this site as the previous page, and another site as its host alone', () => {
		expect(normaliseReferrer('https://canopy.example:8443/contact?x=1', siteHost)).toEqual({
			previousPath: '/contact',
			referrerHost: '',
		})
		expect(normaliseReferrer('https://News.Example.ORG/story/42?utm=1', siteHost)).toEqual({
			previousPath: '',
			referrerHost: 'news.example.org',
		})
		expect(normaliseReferrer('http://canopy.example/other-port', siteHost).referrerHost).toBe(
			'canopy.example',
		)
	})

	it('ignores anything else', () => {
		for (const junk of [
			'',
			'android-app://com.example',
			'javascript:alert(1)',
			'ftp://files.example/x',
			'not a url',
			'//evil.example/x',
		]) {
			expect(normaliseReferrer(junk, siteHost), junk).toEqual({
				previousPath: '',
				referrerHost: '',
			})
		}
	})
})

describe('primaryLanguage', () => {
	it('keeps the primary subtag in lower case, and nothing of what is not a language tag', () => {
		expect(primaryLanguage('fr-CA')).toBe('fr')
		expect(primaryLanguage('EN')).toBe('en')
		expect(primaryLanguage('zh-Hant-TW')).toBe('zh')
		expect(primaryLanguage('gsw')).toBe('gsw')
		for (const junk of ['', 'e', 'english', 'en_US', 'x-klingon', '12-34', 'fr-', '<script>'])
			expect(primaryLanguage(junk), junk).toBe('')
	})
})

describe('screenViewSchema', () => {
	const valid = { screen: 'article', path: '/articles/x', device: 'mobile' }

	it('clips long strings instead of refusing them', () => {
		const parsed = screenViewSchema.parse({
			...valid,
			path: `/${'p'.repeat(5_000)}`,
			title: `  ${'t'.repeat(1_000)}`,
			referrer: `https://a.example/${'r'.repeat(5_000)}`,
			language: 'en-'.repeat(50),
		})
		expect(parsed.path).toHaveLength(collectLimits.path)
		expect(parsed.title).toHaveLength(collectLimits.title - 2)
		expect(parsed.referrer).toHaveLength(collectLimits.referrer)
		expect(parsed.language).toHaveLength(collectLimits.language)
	})

	it('defaults what is optional and strips control characters from the title', () => {
		expect(screenViewSchema.parse({ ...valid, title: ' A\u0000 title\u0007 ', extra: 1 })).toEqual({
			...valid,
			title: 'A title',
			referrer: '',
			language: '',
		})
	})

	it('names every field that is wrong', () => {
		const parsed = screenViewSchema.safeParse({
			screen: '<img src=x>',
			path: 'articles',
			title: 42,
			device: 'watch',
		})
		expect(parsed.success).toBe(false)
		const fields = new Set(parsed.error?.issues.map((issue) => issue.path.join('.')))
		expect(fields).toEqual(new Set(['screen', 'path', 'title', 'device']))
	})
})

describe('screenViewWrite', () => {
	const context = { at: new Date('2026-03-01T10:00:00Z'), visitor: 'v'.repeat(64), siteHost }
	const input = screenViewSchema.parse({
		screen: 'home',
		path: '/home?utm_source=news&email=a@b.c',
		title: 'Home',
		referrer: 'https://search.example/?q=canopy',
		device: 'tablet',
		language: 'pt-BR',
	})

	it('stores the normalised view', () => {
		expect(screenViewWrite(input, context)).toEqual({
			at: context.at,
			visitor: context.visitor,
			screen: 'home',
			path: '/home',
			title: 'Home',
			previousPath: '',
			referrerHost: 'search.example',
			utmSource: 'news',
			utmMedium: '',
			utmCampaign: '',
			device: 'tablet',
			language: 'pt',
		})
	})

	it('counts no page under /admin or /api', () => {
		for (const path of ['/admin', '/admin/articles', '/api/collect', '/api'])
			expect(screenViewWrite({ ...input, path }, context), path).toBeUndefined()
		expect(screenViewWrite({ ...input, path: '/administration' }, context)?.path).toBe(
			'/administration',
		)
	})
})

describe('createRateLimit', () => {
	it('lets `limit` views a window through, then says how long to wait', () => {
		const limited = createRateLimit(3, 60_000, 100)
		const start = 1_000_000
		for (let i = 0; i < 3; i++) expect(limited('a', start + i)).toBe(0)
		expect(limited('a', start + 10)).toBe(60)
		expect(limited('a', start + 30_500)).toBe(30)
		expect(limited('b', start + 30_500)).toBe(0)
		expect(limited('a', start + 60_000)).toBe(0)
	})

	it('forgets the oldest windows past its bound', () => {
		const limited = createRateLimit(1, 60_000, 2)
		expect(limited('a', 0)).toBe(0)
		expect(limited('b', 1)).toBe(0)
		expect(limited('a', 2)).toBeGreaterThan(0)
		expect(limited('c', 3)).toBe(0) // 'a' is forgotten
		expect(limited('a', 4)).toBe(0)
		expect(limited('c', 5)).toBeGreaterThan(0)
	})
})

describe('createCollector', () => {
	it('answers 503 with Retry-After, storing nothing, when the day’s salt cannot be had', async () => {
		const offered: unknown[] = []
		const storage = {
			settings: { setIfAbsent: () => Promise.reject(new Error('connection refused')) },
		} as unknown as Storage
		const buffer = {
			offer: (view: unknown) => offered.push(view) > 0,
		} as unknown as ScreenViewBuffer
		const collect = createCollector({ storage, buffer, siteUrl: 'https://canopy.example' })
		const response = await collect(
			new Request('https://canopy.example/api/collect', {
				method: 'POST',
				headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' },
				body: JSON.stringify({ screen: 'home', path: '/home', device: 'desktop' }),
			}),
			'203.0.113.9',
		)
		expect(response.status).toBe(503)
		expect(response.headers.get('retry-after')).toBe('60')
		expect((await response.json()).error).toMatch(/Try again/)
		expect(offered).toEqual([])
	})
})
