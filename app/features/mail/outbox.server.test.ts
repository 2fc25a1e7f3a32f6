import { describe, expect, it } from 'vitest'
import { defaultRetry, retryDelayMs } from './outbox.server.ts'

describe('retryDelayMs', () => {
	it('doubles from one second, half of it random, and never waits more than an hour', () => {
		const least = (attempts: number) => retryDelayMs(attempts, defaultRetry, () => 0)
		const most = (attempts: number) => retryDelayMs(attempts, defaultRetry, () => 1)
		expect([1, 2, 3, 4].map(most)).toEqual([1_000, 2_000, 4_000, 8_000])
		expect([1, 2, 3, 4].map(least)).toEqual([500, 1_000, 2_000, 4_000])
		expect(most(13)).toBe(60 * 60 * 1000)
		expect(most(40)).toBe(60 * 60 * 1000)
		expect(least(40)).toBe(30 * 60 * 1000)
	})

	it('gives up after about six hours of tries', () => {
		let total = 0
		for (let attempt = 1; attempt < defaultRetry.maxAttempts; attempt++)
			total += retryDelayMs(attempt, defaultRetry, () => 0.5)
		expect(total / (60 * 60 * 1000)).toBeGreaterThan(5)
		expect(total / (60 * 60 * 1000)).toBeLessThan(7)
	})
})
