// The browser's remote-config client against a real HTTP server playing GET /api/config, with
// the clock faked: the minimum interval, the timeout, which answers are retried and when, the
// throttle kept across page loads, ETags, and values that change only when activated.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
	backoffCapMs,
	createRemoteConfig,
	type RemoteConfigOptions,
	retryPolicy,
	type StorageLike,
	storageKeys,
} from './config.client.ts'
import { inAppDefaults } from './in-app-defaults.ts'
import type { ConfigValues } from './parameters.ts'

const hour = 60 * 60 * 1_000
const start = Date.UTC(2026, 10, 21, 12)

type Handler = (request: IncomingMessage, response: ServerResponse) => void
let server: Server
let url = ''
let handler: Handler
let received: IncomingMessage[] = []

const values = (changes: Partial<ConfigValues> = {}): ConfigValues => ({
	...inAppDefaults,
	...changes,
})

/** Answers like GET /api/config: the given version and values, with an ETag and 304s. */
function serveConfig(version: number, body: ConfigValues, etag = `"v${version}"`): Handler {
	return (request, response) => {
		if (request.headers['if-none-match'] === etag) {
			response.writeHead(304, { ETag: etag }).end()
			return
		}
		response
			.writeHead(200, { 'Content-Type': 'application/json', ETag: etag })
			.end(JSON.stringify({ version, values: body }))
	}
}

const answerWith =
	(status: number, headers: Record<string, string> = {}): Handler =>
	(_request, response) => {
		response.writeHead(status, headers).end()
	}

class MemoryStorage implements StorageLike {
	readonly items = new Map<string, string>()
	getItem(key: string) {
		return this.items.get(key) ?? null
	}
	setItem(key: string, value: string) {
		this.items.set(key, value)
	}
	removeItem(key: string) {
		this.items.delete(key)
	}
}

let storage: MemoryStorage
const clients: { dispose(): void }[] = []

function client(options: RemoteConfigOptions = {}) {
	const made = createRemoteConfig({ url, storage, random: () => 0.5, ...options })
	clients.push(made)
	return made
}

function throttleState(): { attempts: number; notBefore: number } | undefined {
	const text = storage.getItem(storageKeys.throttle)
	return text ? JSON.parse(text) : undefined
}

/** Lets real I/O (the HTTP exchange) run while the clock stands still. */
async function until(condition: () => boolean) {
	for (let turn = 0; turn < 20_000 && !condition(); turn++) {
		await new Promise((resolve) => setImmediate(resolve))
	}
	expect(condition()).toBe(true)
}

beforeAll(async () => {
	server = createServer((request, response) => {
		received.push(request)
		// A connection per request: one a test left hanging is never reused by the next.
		response.setHeader('Connection', 'close')
		handler(request, response)
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/config`
})
afterAll(() => {
	server.closeAllConnections()
	return new Promise((resolve) => server.close(resolve))
})

beforeEach(() => {
	vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
	vi.setSystemTime(start)
	storage = new MemoryStorage()
	received = []
	handler = serveConfig(1, values({ banner_message: 'Hello' }))
})
afterEach(() => {
	for (const made of clients.splice(0)) made.dispose()
	vi.useRealTimers()
})

describe('the minimum fetch interval', () => {
	it('fetches once, then skips for 12 hours, then fetches again', async () => {
		const config = client()
		expect(await config.fetch()).toBe('fetched')
		vi.setSystemTime(start + 12 * hour - 1)
		expect(await config.fetch()).toBe('skipped')
		expect(received).toHaveLength(1)
		vi.setSystemTime(start + 12 * hour)
		expect(await config.fetch()).toBe('not-modified')
		expect(received).toHaveLength(2)
	})

	it('is settable', async () => {
		const config = client({ settings: { minimumFetchIntervalMs: 60_000 } })
		await config.fetch()
		vi.setSystemTime(start + 59_999)
		expect(await config.fetch()).toBe('skipped')
		vi.setSystemTime(start + 60_000)
		expect(await config.fetch()).toBe('not-modified')
	})

	it('is ignored by a forced fetch (a live update)', async () => {
		const config = client()
		await config.fetch()
		handler = serveConfig(2, values({ banner_message: 'Newer' }))
		expect(await config.fetch({ force: true })).toBe('fetched')
		expect(received).toHaveLength(2)
		expect(config.knownVersion()).toBe(2)
	})

	it('counts from the server-rendered values a page was seeded with', async () => {
		const config = client()
		config.seed({ version: 1, values: values({ banner_message: 'Rendered' }) })
		expect(await config.fetch()).toBe('skipped')
		expect(received).toHaveLength(0)
		expect(config.getValue('banner_message')).toBe('Rendered')
		expect(config.activate()).toBe(false)
	})
})

describe('the timeout', () => {
	it('abandons a fetch after 60 s as failed, and does not back off', async () => {
		handler = () => {} // never answers
		const config = client()
		let outcome: string | undefined
		const pending = config.fetch().then((result) => {
			outcome = result
		})
		await until(() => received.length === 1)
		await vi.advanceTimersByTimeAsync(59_999)
		expect(outcome).toBeUndefined()
		await vi.advanceTimersByTimeAsync(1)
		await pending
		expect(outcome).toBe('failed')
		expect(throttleState()).toBeUndefined()
		handler = serveConfig(1, values())
		expect(await config.fetch()).toBe('fetched')
	})

	it('is settable', async () => {
		handler = () => {}
		const config = client({ settings: { fetchTimeoutMs: 5_000 } })
		const pending = config.fetch()
		await until(() => received.length === 1)
		await vi.advanceTimersByTimeAsync(5_000)
		expect(await pending).toBe('failed')
	})
})

describe('retries', () => {
	it.each([429, 500, 503, 504])(
		'backs off after %i and retries when the wait is over',
		async (status) => {
			handler = answerWith(status)
			const config = client()
			expect(await config.fetch()).toBe('throttled')
			const first = throttleState()
			expect(first).toEqual({ attempts: 1, notBefore: start + 500 })
			// Asked again while backing off: nothing is sent.
			expect(await config.fetch({ force: true })).toBe('throttled')
			expect(received).toHaveLength(1)
			handler = serveConfig(1, values({ banner_message: 'Back' }))
			await vi.advanceTimersByTimeAsync(499)
			expect(received).toHaveLength(1)
			await vi.advanceTimersByTimeAsync(1)
			await until(() => throttleState() === undefined)
			expect(received).toHaveLength(2)
			expect(config.knownVersion()).toBe(1)
		},
	)

	it.each([
		['400', 400],
		['404', 404],
		['502', 502],
		['a refused connection', 0],
	])('does not retry after %s', async (_name, status) => {
		handler = answerWith(status || 200)
		const config = client(status ? {} : { url: 'http://127.0.0.1:1/api/config' })
		expect(await config.fetch()).toBe('failed')
		expect(throttleState()).toBeUndefined()
		const sent = received.length
		await vi.advanceTimersByTimeAsync(5 * hour)
		expect(received).toHaveLength(sent)
	})

	it('doubles the wait from 1 s up to 4 hours', async () => {
		handler = answerWith(503)
		const config = client({ random: () => 0.999_999 })
		const waits: number[] = []
		for (let attempt = 1; attempt <= 16; attempt++) {
			const now = Date.now()
			expect(await config.fetch({ force: true })).toBe('throttled')
			const state = throttleState()
			expect(state?.attempts).toBe(attempt)
			waits.push((state?.notBefore ?? 0) - now)
			vi.setSystemTime(state?.notBefore ?? 0)
		}
		const caps = waits.map((_wait, index) => backoffCapMs(index + 1))
		expect(caps.slice(0, 4)).toEqual([1_000, 2_000, 4_000, 8_000])
		expect(caps.at(-1)).toBe(retryPolicy.maxMs)
		expect(retryPolicy.maxMs).toBe(4 * hour)
		waits.forEach((wait, index) => {
			expect(wait).toBe(Math.floor(0.999_999 * (caps[index] ?? 0)))
		})
	})

	it('spreads the wait over the whole range (full jitter)', async () => {
		handler = answerWith(429)
		for (const [random, wait] of [
			[0, 0],
			[0.25, 250],
			[0.999, 999],
		] as const) {
			storage = new MemoryStorage()
			const config = client({ random: () => random })
			await config.fetch()
			expect((throttleState()?.notBefore ?? 0) - Date.now()).toBe(wait)
		}
	})

	it('honours a longer Retry-After in seconds, not a shorter one', async () => {
		handler = answerWith(503, { 'Retry-After': '120' })
		await client().fetch()
		expect(throttleState()).toEqual({ attempts: 1, notBefore: start + 120_000 })
		storage = new MemoryStorage()
		handler = answerWith(503, { 'Retry-After': '0' })
		await client({ random: () => 0.9 }).fetch()
		expect(throttleState()).toEqual({ attempts: 1, notBefore: start + 900 })
	})

	it('honours a Retry-After given as an HTTP date', async () => {
		handler = answerWith(429, { 'Retry-After': new Date(start + hour).toUTCString() })
		await client().fetch()
		expect(throttleState()).toEqual({ attempts: 1, notBefore: start + hour })
	})

	it('keeps backing off after a reload, and a success clears the count', async () => {
		handler = answerWith(503)
		await client().fetch()
		vi.setSystemTime(start + 500)
		await client().fetch({ force: true })
		expect(throttleState()?.attempts).toBe(2)

		// A new page on the same storage: still throttled, nothing sent.
		const reloaded = client()
		expect(await reloaded.fetch({ force: true })).toBe('throttled')
		expect(received).toHaveLength(2)

		vi.setSystemTime(throttleState()?.notBefore ?? 0)
		handler = serveConfig(3, values())
		expect(await reloaded.fetch({ force: true })).toBe('fetched')
		expect(throttleState()).toBeUndefined()
		handler = answerWith(503)
		await reloaded.fetch({ force: true })
		expect(throttleState()?.attempts).toBe(1)
	})
})

describe('ETags', () => {
	it('sends If-None-Match, and a 304 keeps the copy and restarts the interval', async () => {
		const config = client()
		await config.fetch()
		expect(received[0]?.headers['if-none-match']).toBeUndefined()
		vi.setSystemTime(start + 13 * hour)
		expect(await config.fetch()).toBe('not-modified')
		expect(received[1]?.headers['if-none-match']).toBe('"v1"')
		vi.setSystemTime(start + 24 * hour)
		expect(await config.fetch()).toBe('skipped')
		expect(config.activate()).toBe(true)
		expect(config.getValue('banner_message')).toBe('Hello')
	})

	it('a new page on the same storage sends the ETag it stored', async () => {
		await client().fetch()
		vi.setSystemTime(start + 13 * hour)
		expect(await client().fetch()).toBe('not-modified')
		expect(received[1]?.headers['if-none-match']).toBe('"v1"')
	})

	it('treats a 200 that is not a configuration as failed', async () => {
		handler = (_request, response) => {
			response.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><p>Hi</p>')
		}
		expect(await client().fetch()).toBe('failed')
	})
})

describe('activation', () => {
	it('keeps fetched values out of sight until activate(), then tells subscribers once', async () => {
		const config = client()
		const heard: ConfigValues[] = []
		config.subscribe((active) => heard.push(active))
		await config.fetch()
		expect(config.getValue('banner_message')).toBe('')
		expect(heard).toEqual([])
		expect(config.activate()).toBe(true)
		expect(config.getValue('banner_message')).toBe('Hello')
		expect(config.activeVersion()).toBe(1)
		expect(heard).toEqual([values({ banner_message: 'Hello' })])
		expect(config.activate()).toBe(false)
		expect(heard).toHaveLength(1)
	})

	it('keeps the active copy as the last good one for the next page', async () => {
		const config = client()
		await config.fetch()
		config.activate()
		expect(client().getValue('banner_message')).toBe('Hello')
	})

	it('a new version with the same values changes the version, not the page', async () => {
		const config = client()
		await config.fetch()
		config.activate()
		handler = serveConfig(2, values({ banner_message: 'Hello' }))
		const heard: unknown[] = []
		config.subscribe((active) => heard.push(active))
		await config.fetch({ force: true })
		expect(config.activate()).toBe(false)
		expect(config.activeVersion()).toBe(2)
		expect(heard).toEqual([])
	})

	it('works on with storage that throws', async () => {
		const broken: StorageLike = {
			getItem: () => {
				throw new Error('SecurityError')
			},
			setItem: () => {
				throw new Error('QuotaExceededError')
			},
			removeItem: () => {
				throw new Error('SecurityError')
			},
		}
		const config = client({ storage: broken })
		expect(await config.fetch()).toBe('fetched')
		expect(config.activate()).toBe(true)
		expect(config.getValue('banner_message')).toBe('Hello')
	})
})
