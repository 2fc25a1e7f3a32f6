import type { IncomingMessage } from 'node:http'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { Change } from '#storage/port/changes.ts'
import type { LiveBroker } from './live/broker.ts'
import { carriesAccountCookie, createPageCache, pageCacheKey } from './page-cache.ts'

const request = (headers: Record<string, string>) =>
	({ method: 'GET', url: '/articles', headers }) as unknown as IncomingMessage

describe('the page cache’s cookie check', () => {
	it('ignores cookies that do not change a page: a theme, a consent banner’s, a CDN’s, the config id', () => {
		for (const header of [
			'theme=dark',
			'canopy_config_id=AbCdEfGhIjKlMnOpQrStUv',
			'cookieconsent_status=dismiss; _ga=GA1.1.123.456; __cf_bm=abc',
			'theme=dark; canopy_config_id=abc',
			'canopy=1; canopy_session=x; mycanopy.session_token=x',
		]) {
			expect(carriesAccountCookie(header), header).toBe(false)
			expect(pageCacheKey(request({ cookie: header })), header).toBe('/articles')
		}
	})

	it('skips the cache for any of Canopy’s account cookies, wherever it stands in the header', () => {
		for (const header of [
			'canopy.session_token=abc.def',
			'theme=dark; canopy.session_data=xyz',
			'theme=dark;__Secure-canopy.session_token=abc',
			'  canopy.device=1',
		]) {
			expect(carriesAccountCookie(header), header).toBe(true)
			expect(pageCacheKey(request({ cookie: header })), header).toBeUndefined()
		}
		expect(pageCacheKey(request({ authorization: 'Bearer key' }))).toBeUndefined()
	})

	// Quadratic before: 16,000 spaces took 1.7 s of CPU, so these would outlast the test's 5 s.
	it('reads a header of 100,000 spaces and semicolons at once', () => {
		expect(carriesAccountCookie(`a=b${' '.repeat(100_000)}; canopy.session_token=x`)).toBe(true)
		expect(carriesAccountCookie(';  '.repeat(50_000))).toBe(false)
	})
})

describe('the page cache’s languages', () => {
	it('keeps a page per interface language asked for, by the switcher’s cookie or Accept-Language', () => {
		expect(pageCacheKey(request({ 'accept-language': 'es-ES,es;q=0.9,en;q=0.8' }))).toBe(
			'/articles\nes,en',
		)
		expect(pageCacheKey(request({ 'accept-language': 'ar' }))).toBe('/articles\nar')
		// Languages without a catalogue do not make pages of their own.
		expect(pageCacheKey(request({ 'accept-language': 'de-DE,de;q=0.9' }))).toBe('/articles')
		expect(pageCacheKey(request({ 'accept-language': 'de, fr;q=0.5' }))).toBe('/articles\nfr')
		// The switcher's choice comes first, is not an account cookie, and is marked as chosen: a
		// page keeps it on an article in another language, where one asked for follows the article.
		expect(pageCacheKey(request({ cookie: 'lang=fr', 'accept-language': 'es' }))).toBe(
			'/articles\n=fr,es',
		)
		expect(pageCacheKey(request({ cookie: 'lang=es', 'accept-language': 'es' }))).not.toBe(
			pageCacheKey(request({ 'accept-language': 'es' })),
		)
		expect(pageCacheKey(request({ 'accept-language': 'es;q=0, en' }))).toBe('/articles\nen')
	})
})

describe('the page cache’s redirects', () => {
	/** A cache and a way to tell it of changes, as the broker would. */
	function cacheWithFeed() {
		let hear: (changes: Change[]) => void = () => {}
		const broker = {
			onChanges(listener: (changes: Change[]) => void) {
				hear = listener
				return () => {}
			},
		} as unknown as LiveBroker
		return {
			cache: createPageCache(broker),
			hear: (topic: string) =>
				hear([{ id: 1, topic, entityId: 'x', kind: 'modified', createdAt: '' }]),
		}
	}
	const moved = (status: number, cacheControl?: string) =>
		new Response(null, {
			status,
			headers: {
				Location: '/articles/new-name',
				...(cacheControl ? { 'Cache-Control': cacheControl } : {}),
			},
		})

	it('keeps a redirect the site marked public, and answers it without a body until redirects change', async () => {
		const { cache, hear } = cacheWithFeed()
		await cache.store(
			'/articles/old-name',
			moved(301, 'public, max-age=300'),
			'n',
			cache.generation,
		)
		const page = cache.get('/articles/old-name')
		expect(page?.status).toBe(301)
		expect(page?.headers.location).toBe('/articles/new-name')
		const answer = page && cache.render(page, 'nonce', true)
		expect(answer?.body.length).toBe(0)
		expect(answer?.headers['Content-Encoding']).toBeUndefined()
		hear('redirects')
		expect(cache.get('/articles/old-name')).toBeUndefined()
	})

	it('answers a kept page with each response’s own nonce, in any script, plain and gzipped', async () => {
		const { cache } = cacheWithFeed()
		const page = (nonce: string) =>
			`<html lang="ar"><script nonce="${nonce}">1</script><h1>Rhône · العربية · 中文</h1>` +
			`<style nonce="${nonce}"></style></html>`
		const stored = 'AAAAAAAAAAAAAAAAAAAAAA=='
		await cache.store(
			'/ar',
			new Response(page(stored), { headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
			stored,
			cache.generation,
		)
		const kept = cache.get('/ar')
		expect(kept?.parts).toHaveLength(3)
		for (const nonce of ['bm9uY2Ugb25lIG9uZSBvbg==', 'dHdvIHR3byB0d28gdHdvIQ==']) {
			const plain = kept && cache.render(kept, nonce, false)
			expect(plain?.body.toString('utf8')).toBe(page(nonce))
			expect(plain?.headers['Content-Length']).toBe(String(Buffer.byteLength(page(nonce))))
			const zipped = kept && cache.render(kept, nonce, true)
			expect(zipped?.headers['Content-Encoding']).toBe('gzip')
			expect(gunzipSync(zipped?.body ?? Buffer.alloc(0)).toString('utf8')).toBe(page(nonce))
		}
	})

	it('keeps no redirect without Cache-Control public (the catch-all’s to /home)', async () => {
		const { cache } = cacheWithFeed()
		await cache.store('/no/such/page', moved(302), 'n', cache.generation)
		await cache.store('/private', moved(301, 'private, no-store'), 'n', cache.generation)
		expect(cache.get('/no/such/page')).toBeUndefined()
		expect(cache.get('/private')).toBeUndefined()
	})
})
