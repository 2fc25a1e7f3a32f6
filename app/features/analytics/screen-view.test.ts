import { describe, expect, it } from 'vitest'
import { createScreenViews, optedOut, trackedPath } from './screen-view.ts'

const at = (key: string, pathname: string, search = '') => ({ key, pathname, search })
const page = {
	screen: 'articles',
	title: 'Articles · Preserve the Planet',
	referrer: 'https://news.example/story',
	width: 1280,
	language: 'fr-CA',
}
const viewOf = (
	next: ReturnType<typeof createScreenViews>,
	location: ReturnType<typeof at>,
	overrides: Partial<typeof page> = {},
) => {
	const { screen, title, referrer, width, language } = { ...page, ...overrides }
	return next(location, screen, title, referrer, width, language)
}

describe('trackedPath', () => {
	it('keeps the pathname and only the utm_* and ref parameters, in their order', () => {
		expect(trackedPath('/articles', '')).toBe('/articles')
		expect(trackedPath('/articles', '?cursor=abc&email=ana%40example.org')).toBe('/articles')
		expect(
			trackedPath('/home', '?q=1&utm_source=news&utm_medium=email&x=2&utm_campaign=spring&ref=hn'),
		).toBe('/home?utm_source=news&utm_medium=email&utm_campaign=spring&ref=hn')
		expect(trackedPath('/home', '?utm_content=a%20b&referrer=x&refx=1&ref=')).toBe(
			'/home?utm_content=a%20b&ref=',
		)
		expect(trackedPath('/home', '?')).toBe('/home')
	})
})

describe('createScreenViews', () => {
	it('sends the first screen with the page the browser came from, then the previous path', () => {
		const next = createScreenViews()
		expect(viewOf(next, at('default', '/articles', '?utm_campaign=spring&cursor=x'))).toEqual({
			screen: 'articles',
			path: '/articles?utm_campaign=spring',
			title: 'Articles · Preserve the Planet',
			referrer: 'https://news.example/story',
			device: 'desktop',
			language: 'fr-CA',
		})
		const after = viewOf(next, at('k2', '/articles/the-living-ground'), {
			screen: 'article',
			title: 'The living ground',
		})
		expect(after).toMatchObject({
			screen: 'article',
			path: '/articles/the-living-ground',
			title: 'The living ground',
			referrer: '/articles',
		})
	})

	it('sends nothing again for the same location (a re-render, a revalidation, StrictMode)', () => {
		const next = createScreenViews()
		const home = at('a1', '/home')
		expect(viewOf(next, home)).toBeDefined()
		expect(viewOf(next, home)).toBeUndefined()
		expect(viewOf(next, { ...home })).toBeUndefined()
	})

	it('counts a change of the query string but not of the hash alone', () => {
		const next = createScreenViews()
		expect(viewOf(next, at('a1', '/articles'))).toBeDefined()
		// A hash change gets a new key with the same pathname and search.
		expect(viewOf(next, at('a2', '/articles'))).toBeUndefined()
		const older = viewOf(next, at('a3', '/articles', '?cursor=abc'))
		expect(older).toMatchObject({ path: '/articles', referrer: '/articles' })
		expect(viewOf(next, at('a4', '/articles', '?cursor=abc'))).toBeUndefined()
		expect(viewOf(next, at('a5', '/home'))).toMatchObject({ path: '/home', referrer: '/articles' })
	})

	it('never sends from the editor area, and a reader back from it has come from there', () => {
		const next = createScreenViews()
		expect(viewOf(next, at('a1', '/admin'))).toBeUndefined()
		expect(viewOf(next, at('a2', '/admin/articles', '?q=x'))).toBeUndefined()
		expect(viewOf(next, at('a3', '/home'))).toMatchObject({ referrer: '/admin/articles' })
		expect(viewOf(next, at('a4', '/administration'))).toMatchObject({
			path: '/administration',
		})
	})

	it('classes the viewport: mobile under 640 px, tablet under 1,024 px, desktop from there', () => {
		const widths: [number, string][] = [
			[320, 'mobile'],
			[390, 'mobile'],
			[639, 'mobile'],
			[640, 'tablet'],
			[1023, 'tablet'],
			[1024, 'desktop'],
			[2560, 'desktop'],
		]
		for (const [width, device] of widths) {
			const next = createScreenViews()
			expect(viewOf(next, at('k', '/home'), { width })?.device, `${width} px`).toBe(device)
		}
	})
})

describe('optedOut', () => {
	it('honours Do Not Track (navigator or window) and Global Privacy Control', () => {
		expect(optedOut({}, {})).toBe(false)
		expect(optedOut({ doNotTrack: null }, {})).toBe(false)
		expect(optedOut({ doNotTrack: '0', globalPrivacyControl: false }, {})).toBe(false)
		expect(optedOut({ doNotTrack: 'unspecified' }, {})).toBe(false)
		expect(optedOut({ doNotTrack: '1' }, {})).toBe(true)
		expect(optedOut({}, { doNotTrack: '1' })).toBe(true)
		expect(optedOut({ globalPrivacyControl: true }, {})).toBe(true)
	})
})
