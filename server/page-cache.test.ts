import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import type { Change } from '#storage/port/changes.ts'
import type { LiveBroker } from './live/broker.ts'
import { createPageCache, isOnlyConfigCookie, pageCacheKey } from './page-cache.ts'

const request = (headers: Record<string, string>) =>
	({ method: 'GET', url: '/articles', headers }) as unknown as IncomingMessage

describe('the page cache’s cookie check', () => {
	it('takes the config id alone, with or without spaces and a trailing semicolon', () => {
		for (const header of [
			'canopy_config_id=AbCdEfGhIjKlMnOpQrStUv',
			' canopy_config_id=AbCdEfGhIjKlMnOpQrStUv ; ',
			'canopy_config_id=',
		])
			expect(isOnlyConfigCookie(header), header).toBe(true)
		expect(pageCacheKey(request({ cookie: 'canopy_config_id=abc' }))).toBe('/articles')
	})

	it('refuses any other cookie, or the id beside another', () => {
		for (const header of [
			'theme=dark',
			'canopy_config_id=abc; theme=dark',
			'theme=dark; canopy_config_id=abc',
			'canopy_config_id=a b',
			'canopy_config_idx=abc',
			'canopy_config_id=abc;;',
		])
			expect(isOnlyConfigCookie(header), header).toBe(false)
		expect(pageCacheKey(request({ cookie: 'theme=dark' }))).toBeUndefined()
	})

	// Quadratic before: 16,000 spaces took 1.7 s of CPU, so this header took over a minute.
	it('reads a header of 100,000 spaces between the id and a letter at once, and does not cache it', () => {
		const attack = `canopy_config_id=a${' '.repeat(100_000)}x`
		expect(isOnlyConfigCookie(attack)).toBe(false)
		expect(pageCacheKey(request({ cookie: attack }))).toBeUndefined()
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

	it('keeps no redirect without Cache-Control public (the catch-all’s to /home)', async () => {
		const { cache } = cacheWithFeed()
		await cache.store('/no/such/page', moved(302), 'n', cache.generation)
		await cache.store('/private', moved(301, 'private, no-store'), 'n', cache.generation)
		expect(cache.get('/no/such/page')).toBeUndefined()
		expect(cache.get('/private')).toBeUndefined()
	})
})
