// The browser's remote-config client, as the hosted library Canopy replaces behaved
// (docs/decisions/013-remote-config.md): fetches GET /api/config at most every 12 hours unless
// forced, keeps what it fetched apart from what the page uses until activate(), and backs off
// when the server says it is busy, across reloads. Loaded by import() after hydration
// (config-store.ts), never as first-view code.
import { inAppDefaults } from './in-app-defaults.ts'
import type { ConfigValues, EvaluatedConfig, ParameterKey } from './parameters.ts'

/** The part of the Web Storage API the client uses (localStorage by default). */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

export interface RemoteConfigSettings {
	/** A fetch still unanswered after this is abandoned (60 s). */
	fetchTimeoutMs?: number
	/** A fetch is skipped while the last successful one is younger than this (12 h). */
	minimumFetchIntervalMs?: number
}

export interface RemoteConfigOptions {
	url?: string
	fetch?: typeof globalThis.fetch
	/** Milliseconds since the epoch. */
	now?: () => number
	/** In [0, 1): the backoff's jitter. */
	random?: () => number
	/** null: keep nothing between page loads. */
	storage?: StorageLike | null
	settings?: RemoteConfigSettings
}

/**
 * fetched: new values stored as the fetched copy; not-modified: the server's answer was the
 * copy already fetched (304); skipped: the last fetch is recent enough; throttled: backing off
 * after a busy server (429, 500, 503, 504), with a retry scheduled; failed: anything else (no
 * answer, a timeout, another status), not retried until the next fetch is due.
 */
export type FetchOutcome = 'fetched' | 'not-modified' | 'skipped' | 'throttled' | 'failed'

export interface RemoteConfig {
	fetch(options?: { force?: boolean }): Promise<FetchOutcome>
	/** Makes the fetched copy the active one; true when that changed any value. */
	activate(): boolean
	getValue<Key extends ParameterKey>(key: Key): ConfigValues[Key]
	/** The active copy's version (0: none published, or nothing known yet). */
	activeVersion(): number
	/** The newest version this browser holds, fetched or active. */
	knownVersion(): number
	/** Called with the new values when activate() changes them; returns the unsubscribe. */
	subscribe(listener: (values: ConfigValues) => void): () => void
	/** The server-rendered values become the active (and fetched) copy, as just fetched. */
	seed(evaluated: EvaluatedConfig): void
	/** Cancels a scheduled retry (a page that goes away, or a test). */
	dispose(): void
}

export const storageKeys = {
	fetched: 'canopy.config.fetched',
	active: 'canopy.config.active',
	throttle: 'canopy.config.throttle',
} as const

export const retryPolicy = { baseMs: 1_000, factor: 2, maxMs: 4 * 60 * 60 * 1_000 } as const
export const retryStatuses: ReadonlySet<number> = new Set([429, 500, 503, 504])

interface FetchedCopy extends EvaluatedConfig {
	etag: string | null
	fetchedAt: number
}
interface ThrottleState {
	attempts: number
	notBefore: number
}

/** The longest wait the backoff gives after `attempts` failures in a row, before jitter. */
export function backoffCapMs(attempts: number): number {
	const exponent = Math.min(Math.max(0, attempts - 1), 64)
	return Math.min(retryPolicy.maxMs, retryPolicy.baseMs * retryPolicy.factor ** exponent)
}

/** Retry-After (RFC 9110 §10.2.3) in milliseconds from `now`: delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
	const text = value?.trim()
	if (!text) return undefined
	if (/^\d+$/.test(text)) return Number(text) * 1_000
	// Date.parse takes many forms; an HTTP date always names a weekday or month in letters.
	if (!/[a-z]/i.test(text)) return undefined
	const at = Date.parse(text)
	return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

function defaultStorage(): StorageLike | null {
	try {
		return globalThis.localStorage ?? null
	} catch {
		// Reading localStorage throws where the reader has turned site data off.
		return null
	}
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value)

/** A { version, values } from the server or storage; missing values are the in-app defaults. */
function readEvaluated(value: unknown): EvaluatedConfig | undefined {
	if (!isRecord(value) || typeof value.version !== 'number' || !isRecord(value.values)) return
	return { version: value.version, values: { ...inAppDefaults, ...value.values } as ConfigValues }
}

const sameValues = (a: ConfigValues, b: ConfigValues) => JSON.stringify(a) === JSON.stringify(b)

/**
 * One closure, as a class would be: the fetched copy, the active values, the listeners and the
 * back-off timer are its state, shared by the short functions inside (each under 40 lines).
 */
export function createRemoteConfig(options: RemoteConfigOptions = {}): RemoteConfig {
	const url = options.url ?? '/api/config'
	const request = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
	const now = options.now ?? Date.now
	const random = options.random ?? Math.random
	const storage = options.storage === undefined ? defaultStorage() : options.storage
	const timeoutMs = options.settings?.fetchTimeoutMs ?? 60_000
	const intervalMs = options.settings?.minimumFetchIntervalMs ?? 12 * 60 * 60 * 1_000

	const load = (key: string): unknown => {
		try {
			return JSON.parse(storage?.getItem(key) ?? 'null')
		} catch {
			return null
		}
	}
	const save = (key: string, value: unknown) => {
		try {
			if (value === undefined) storage?.removeItem(key)
			else storage?.setItem(key, JSON.stringify(value))
		} catch {
			// Storage full or off: this page still works with what it holds in memory.
		}
	}

	const readFetched = (value: unknown): FetchedCopy | undefined => {
		const evaluated = readEvaluated(value)
		if (!evaluated || !isRecord(value)) return undefined
		const etag = typeof value.etag === 'string' ? value.etag : null
		return { ...evaluated, etag, fetchedAt: Number(value.fetchedAt) || 0 }
	}

	let fetched = readFetched(load(storageKeys.fetched))
	let active: EvaluatedConfig = readEvaluated(load(storageKeys.active)) ?? {
		version: 0,
		values: { ...inAppDefaults },
	}
	const listeners = new Set<(values: ConfigValues) => void>()
	let inFlight: Promise<FetchOutcome> | undefined
	let retryTimer: ReturnType<typeof setTimeout> | undefined

	// Read on every fetch, not once: another tab of the same site may have backed off meanwhile.
	const throttle = (): ThrottleState | undefined => {
		const state = load(storageKeys.throttle)
		return isRecord(state) &&
			typeof state.attempts === 'number' &&
			typeof state.notBefore === 'number'
			? { attempts: state.attempts, notBefore: state.notBefore }
			: undefined
	}

	const scheduleRetry = (at: number, force: boolean) => {
		if (retryTimer !== undefined) return
		retryTimer = setTimeout(
			() => {
				retryTimer = undefined
				void client.fetch({ force })
			},
			Math.max(0, at - now()),
		)
	}

	const backOff = (response: Response, force: boolean): FetchOutcome => {
		const attempts = (throttle()?.attempts ?? 0) + 1
		// Full jitter: anywhere from nothing to the cap, so browsers told "busy" at the same moment
		// do not all come back at the same moment.
		const backoff = Math.floor(random() * backoffCapMs(attempts))
		const retryAfter = parseRetryAfter(response.headers.get('Retry-After'), now()) ?? 0
		const notBefore = now() + Math.max(backoff, retryAfter)
		save(storageKeys.throttle, { attempts, notBefore } satisfies ThrottleState)
		scheduleRetry(notBefore, force)
		return 'throttled'
	}

	const attempt = async (force: boolean): Promise<FetchOutcome> => {
		const controller = new AbortController()
		const timer = setTimeout(() => controller.abort(), timeoutMs)
		try {
			const headers: Record<string, string> = { Accept: 'application/json' }
			if (fetched?.etag) headers['If-None-Match'] = fetched.etag
			const response = await request(url, {
				headers,
				signal: controller.signal,
				credentials: 'same-origin',
				cache: 'no-store',
			})
			if (retryStatuses.has(response.status)) return backOff(response, force)
			if (response.status === 304 && fetched) {
				fetched = { ...fetched, fetchedAt: now() }
			} else if (response.status === 200) {
				const evaluated = readEvaluated(await response.json())
				if (!evaluated) return 'failed'
				fetched = { ...evaluated, etag: response.headers.get('ETag'), fetchedAt: now() }
			} else {
				return 'failed'
			}
			save(storageKeys.fetched, fetched)
			save(storageKeys.throttle, undefined)
			return response.status === 304 ? 'not-modified' : 'fetched'
		} catch {
			// No answer, an unreadable one, or the timeout's abort. A timeout is not backed off:
			// the design retries only on the statuses by which a server says it is busy, and a
			// timeout says nothing of the kind; the next due fetch (or live event) tries again.
			return 'failed'
		} finally {
			clearTimeout(timer)
		}
	}

	const client: RemoteConfig = {
		fetch({ force = false } = {}) {
			const state = throttle()
			if (!force && fetched && now() - fetched.fetchedAt < intervalMs) {
				return Promise.resolve('skipped')
			}
			if (state && now() < state.notBefore) {
				// After a reload the throttle holds until its time, then this page retries.
				scheduleRetry(state.notBefore, force)
				return Promise.resolve('throttled')
			}
			inFlight ??= attempt(force).finally(() => {
				inFlight = undefined
			})
			return inFlight
		},

		activate() {
			if (!fetched) return false
			const changed = !sameValues(fetched.values, active.values)
			if (!changed && fetched.version === active.version) return false
			active = { version: fetched.version, values: fetched.values }
			save(storageKeys.active, active)
			if (changed) for (const listener of listeners) listener(active.values)
			return changed
		},

		getValue: (key) => active.values[key],
		activeVersion: () => active.version,
		knownVersion: () => Math.max(active.version, fetched?.version ?? 0),

		subscribe(listener) {
			listeners.add(listener)
			return () => {
				listeners.delete(listener)
			}
		},

		seed(evaluated) {
			const values = { ...inAppDefaults, ...evaluated.values }
			// The same copy as the one fetched before keeps its ETag: the next fetch can be a 304.
			const etag =
				fetched?.version === evaluated.version && sameValues(fetched.values, values)
					? fetched.etag
					: null
			const changed = !sameValues(values, active.values)
			fetched = { version: evaluated.version, values, etag, fetchedAt: now() }
			active = { version: evaluated.version, values }
			save(storageKeys.fetched, fetched)
			save(storageKeys.active, active)
			if (changed) for (const listener of listeners) listener(active.values)
		},

		dispose() {
			clearTimeout(retryTimer)
			retryTimer = undefined
		},
	}
	return client
}
