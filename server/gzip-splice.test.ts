import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { spliceGzip } from './gzip-splice.ts'

describe('spliceGzip', () => {
	const page = `<!DOCTYPE html><script nonce="NONCE">x()</script>${'<p>Soil, rivers and reefs. </p>'.repeat(500)}<link nonce="NONCE" href="/a.css"/>é🌍 end`
	const parts = page.split('NONCE')

	it('decompresses to the page with the filler in every gap', () => {
		const gzip = spliceGzip(parts)
		for (const nonce of ['abc123+/==', 'Zm9vYmFyYmF6cXV4', '']) {
			expect(gunzipSync(gzip.with(nonce)).toString('utf8')).toBe(parts.join(nonce))
		}
	})

	it('is much smaller than the page', () => {
		const body = spliceGzip(parts).with('0123456789abcdefABCDEF==')
		expect(body.length).toBeLessThan(Buffer.byteLength(page) / 10)
	})

	it('handles a page without a nonce and a page that is only nonces', () => {
		expect(gunzipSync(spliceGzip(['just text']).with('n')).toString()).toBe('just text')
		expect(gunzipSync(spliceGzip(['', '', '']).with('nn')).toString()).toBe('nnnn')
	})
})
