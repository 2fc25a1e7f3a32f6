import { describe, expect, it } from 'vitest'
import { createNonce } from './security.ts'

describe('CSP nonces', () => {
	it('are 16 random bytes each, never repeated, across many refills of the pool', () => {
		const seen = new Set<string>()
		for (let i = 0; i < 5_000; i++) {
			const nonce = createNonce()
			expect(Buffer.from(nonce, 'base64')).toHaveLength(16)
			seen.add(nonce)
		}
		expect(seen.size).toBe(5_000)
		// Each byte value turns up about equally often: not a counter, not zeros after a refill.
		const counts = new Array<number>(256).fill(0)
		for (const nonce of seen)
			for (const byte of Buffer.from(nonce, 'base64')) counts[byte] = (counts[byte] ?? 0) + 1
		expect(Math.min(...counts)).toBeGreaterThan(200)
		expect(Math.max(...counts)).toBeLessThan(450)
	})
})
