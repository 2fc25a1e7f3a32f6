import { describe, expect, it } from 'vitest'
import {
	backoffMs,
	buildPayload,
	classify,
	defaultRetry,
	maxPayloadBytes,
	parseRetryAfter,
	pushTtlSeconds,
	remainingTtlSeconds,
} from './delivery.server.ts'

const site = { siteUrl: 'https://blog.example.org', logoUrl: '/logo.svg' }
const bytes = (text: string) => new TextEncoder().encode(text).length
const now = new Date('2026-11-21T12:00:00Z')
const half = () => 0.5

describe('the payload', () => {
	it('names the article, its absolute URL and the site icon', () => {
		const payload = JSON.parse(
			buildPayload({ slug: 'hello world', title: 'Hello', summary: 'A summary.' }, site),
		)
		expect(payload).toEqual({
			title: 'Hello',
			summary: 'A summary.',
			url: 'https://blog.example.org/articles/hello%20world',
			icon: 'https://blog.example.org/logo.svg',
		})
		const custom = { siteUrl: site.siteUrl, logoUrl: 'https://cdn.example.org/l.png' }
		expect(JSON.parse(buildPayload({ slug: 'a', title: 'A', summary: '' }, custom)).icon).toBe(
			'https://cdn.example.org/l.png',
		)
	})

	it('cuts a long summary, with an ellipsis, to at most 3993 bytes', () => {
		for (const summary of [
			'a'.repeat(10_000),
			'é'.repeat(5_000),
			'😀'.repeat(3_000),
			'"\\'.repeat(3000),
		]) {
			const text = buildPayload({ slug: 's', title: 'Title', summary }, site)
			expect(bytes(text)).toBeLessThanOrEqual(maxPayloadBytes)
			expect(bytes(text)).toBeGreaterThan(maxPayloadBytes - 16)
			const payload = JSON.parse(text)
			expect(payload.title).toBe('Title')
			expect(payload.summary.endsWith('…')).toBe(true)
			expect(payload.summary).not.toMatch(/[\uD800-\uDBFF]…$/)
		}
	})

	it('leaves a summary that fits untouched, and cuts the title only when it alone is too long', () => {
		const summary = 'b'.repeat(3_000)
		expect(JSON.parse(buildPayload({ slug: 's', title: 'T', summary }, site)).summary).toBe(summary)
		const text = buildPayload({ slug: 's', title: 't'.repeat(8_000), summary }, site)
		expect(bytes(text)).toBeLessThanOrEqual(maxPayloadBytes)
		expect(JSON.parse(text).summary).toBe('')
	})
})

describe('the backoff', () => {
	it('doubles from 1 s up to 4 h', () => {
		const full = (attempts: number) => backoffMs(attempts, defaultRetry, () => 1)
		expect([1, 2, 3, 4].map(full)).toEqual([1_000, 2_000, 4_000, 8_000])
		expect(full(14)).toBe(8_192_000)
		expect(full(15)).toBe(4 * 60 * 60 * 1_000)
		expect(full(1_000)).toBe(4 * 60 * 60 * 1_000)
	})

	it('takes the upper half at random', () => {
		expect(backoffMs(3, defaultRetry, () => 0)).toBe(2_000)
		expect(backoffMs(3, defaultRetry, () => 0.999_999)).toBe(4_000)
		for (let i = 0; i < 200; i++) {
			const wait = backoffMs(5)
			expect(wait).toBeGreaterThanOrEqual(8_000)
			expect(wait).toBeLessThanOrEqual(16_000)
		}
	})
})

describe('the TTL', () => {
	const published = '2026-11-21T12:00:00.000Z'
	const at = (ms: number) => new Date(new Date(published).getTime() + ms)
	const day = pushTtlSeconds * 1_000

	it('is the part of the day left since the article was published, in whole seconds', () => {
		expect(remainingTtlSeconds(published, at(0), day)).toBe(86_400)
		expect(remainingTtlSeconds(published, at(1), day)).toBe(86_399)
		expect(remainingTtlSeconds(published, at(6 * 60 * 60 * 1_000), day)).toBe(64_800)
		expect(remainingTtlSeconds(published, at(day - 1_000), day)).toBe(1)
	})

	it('is 0, never less, once the day is over, and never more than a day', () => {
		expect(remainingTtlSeconds(published, at(day - 999), day)).toBe(0)
		expect(remainingTtlSeconds(published, at(2 * day), day)).toBe(0)
		expect(remainingTtlSeconds(published, at(-60_000), day)).toBe(86_400)
		expect(remainingTtlSeconds(published, at(0), 2 * day)).toBe(86_400)
		expect(remainingTtlSeconds(published, at(0), 10_000)).toBe(10)
	})
})

describe('Retry-After', () => {
	it('reads seconds and HTTP dates, and ignores junk', () => {
		expect(parseRetryAfter('120', now)).toBe(120_000)
		expect(parseRetryAfter(' 7 ', now)).toBe(7_000)
		expect(parseRetryAfter('Sat, 21 Nov 2026 12:01:30 GMT', now)).toBe(90_000)
		expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0)
		for (const junk of [undefined, '', 'soon', '-5', '1.5', '{}', 12])
			expect(parseRetryAfter(junk, now)).toBeUndefined()
	})
})

describe('what an answer means', () => {
	const context = { attempts: 1, now, random: half }
	const failure = (statusCode: number, headers: Record<string, string> = {}) =>
		Object.assign(new Error('Received unexpected response code'), {
			statusCode,
			headers,
			body: 'no',
		})

	it('2xx is sent; 404 and 410 are gone', () => {
		expect(classify({ status: 201 }, context)).toEqual({ kind: 'sent', status: 201 })
		expect(classify({ error: failure(404) }, context)).toEqual({ kind: 'gone', status: 404 })
		expect(classify({ error: failure(410) }, context)).toEqual({ kind: 'gone', status: 410 })
	})

	it('400, 401, 403 and 413 are failed for good; 401 and 403 blame our VAPID credentials', () => {
		for (const [status, cause] of [
			[400, 'message'],
			[401, 'credentials'],
			[403, 'credentials'],
			[413, 'message'],
		] as const)
			expect(classify({ error: failure(status) }, context)).toEqual({
				kind: 'failed',
				status,
				reason: `HTTP ${status}: no`,
				cause,
			})
	})

	it('429, 5xx, timeouts and resets are retried after the backoff', () => {
		expect(classify({ error: failure(500) }, { ...context, attempts: 3 })).toMatchObject({
			kind: 'retry',
			status: 500,
			delayMs: 3_000,
		})
		expect(classify({ error: failure(429) }, context)).toMatchObject({
			kind: 'retry',
			delayMs: 750,
		})
		expect(classify({ error: new Error('Socket timeout') }, context)).toEqual({
			kind: 'retry',
			status: null,
			reason: 'Socket timeout',
			delayMs: 750,
		})
		const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })
		expect(classify({ error: reset }, context)).toMatchObject({ kind: 'retry', status: null })
	})

	it('honours a Retry-After longer than the backoff, and only then', () => {
		const longer = classify({ error: failure(429, { 'retry-after': '60' }) }, context)
		expect(longer).toMatchObject({ kind: 'retry', delayMs: 60_000 })
		const date = classify(
			{ error: failure(503, { 'retry-after': 'Sat, 21 Nov 2026 12:02:00 GMT' }) },
			context,
		)
		expect(date).toMatchObject({ kind: 'retry', delayMs: 120_000 })
		const shorter = classify(
			{ error: failure(429, { 'retry-after': '1' }) },
			{ ...context, attempts: 5 },
		)
		expect(shorter).toMatchObject({ kind: 'retry', delayMs: 12_000 })
		const junk = classify({ error: failure(429, { 'retry-after': 'later' }) }, context)
		expect(junk).toMatchObject({ kind: 'retry', delayMs: 750 })
	})
})
