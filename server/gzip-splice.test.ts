import { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { spliceGzip } from './gzip-splice.ts'

describe('spliceGzip', () => {
	const page = `<!DOCTYPE html><script nonce="NONCE">x()</script>${'<p>Soil, rivers and reefs. </p>'.repeat(500)}<link nonce="NONCE" href="/a.css"/>é🌍 end`
	const parts = page.split('NONCE')

	it('decompresses to the page with the filler in every gap', () => {
		const gzip = spliceGzip(parts, 16)
		for (const nonce of ['abc123+/==abc12+', 'Zm9vYmFyYmF6cXV4', 'NONCENONCENONCE!']) {
			expect(gunzipSync(gzip.with(nonce)).toString('utf8')).toBe(parts.join(nonce))
		}
	})

	it('compresses text repeated across a nonce as well as one gzip stream does', () => {
		// An article-sized body of varied words (a fixed pseudo-random sequence).
		const words =
			'soil water carbon river forest ocean reef wetland peat seed bee kelp fish rain wind sun'.split(
				' ',
			)
		let state = 7
		const body = Array.from({ length: 3000 }, () => {
			state = (state * 48271) % 2147483647
			return words[state % words.length]
		}).join(' ')
		const repeated = [
			`<main>${body}</main><script nonce="`,
			`">hydrate(${JSON.stringify(body)})</script>`,
		]
		const spliced = spliceGzip(repeated, 24).with('0123456789abcdefABCDEF==')
		const whole = gzipSync(repeated.join('0123456789abcdefABCDEF=='), { level: 9 })
		expect(gunzipSync(spliced).toString()).toBe(repeated.join('0123456789abcdefABCDEF=='))
		expect(spliced.length).toBeLessThan(whole.length + 64)
	})

	it('refuses a filler of another length, and handles edge cases', () => {
		expect(() => spliceGzip(parts, 16).with('short')).toThrow(RangeError)
		expect(gunzipSync(spliceGzip(['just text'], 1).with('n')).toString()).toBe('just text')
		expect(gunzipSync(spliceGzip(['', '', ''], 2).with('nn')).toString()).toBe('nnnn')
	})
})
