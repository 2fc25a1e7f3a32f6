import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { isOnlyConfigCookie, pageCacheKey } from './page-cache.ts'

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
