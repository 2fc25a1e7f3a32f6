// The pool Kysely (and through it better-auth) takes connections from: pg's pool behind the
// database guard. A connection that dies is dropped, never handed out again. A statement whose
// connection died runs again on another connection only when that cannot do harm: a plain read
// outside a transaction, a BEGIN, or a statement pg refused before sending it; up to three times,
// as the pool may hold more connections that died with the first and has not heard of it yet
// (their error events still queued behind this request on a busy machine). Anything
// else (a write, or any statement inside a transaction) fails with StorageUnavailable: it may
// have committed just before the connection went, and only the caller knows whether sending it
// again is safe (decision 016).
import type { PostgresPool, PostgresPoolClient } from 'kysely'
import type pg from 'pg'
import { preparedMark } from '../kysely/prepared.ts'
import { storableText } from '../kysely/storable-text.ts'
import { StorageUnavailable } from '../port/unavailable.ts'
import {
	beginsTransaction,
	endsTransaction,
	isConnectionFailure,
	isPlainRead,
	isRefusal,
	wasNotSent,
} from './connection-errors.ts'
import { type DatabaseGuard, unavailableError } from './database-guard.ts'

const maxRepeats = 3

/** Text as PostgreSQL stores it (no NUL), also inside an array parameter (names passed as text[]). */
const storable = (value: unknown): unknown =>
	typeof value === 'string'
		? storableText(value)
		: Array.isArray(value)
			? value.map((item) => (typeof item === 'string' ? storableText(item) : item))
			: value

const preparedNames = new Map<string, string>()

/** Marked at its start, or (a Kysely query's modifyFront) right after its SELECT. */
const isMarked = (text: string) =>
	text.startsWith(preparedMark) || text.startsWith(`select ${preparedMark}`)

/** Far more than the marked statements there are: a text built per call is not kept forever. */
const maxPrepared = 100

/**
 * The name a marked statement is prepared under on each connection: one per text (pg refuses one
 * name for two texts), from a counter, as the marked texts are a handful of constants.
 */
function preparedName(text: string): string | undefined {
	let name = preparedNames.get(text)
	if (!name && preparedNames.size < maxPrepared) {
		name = `canopy_${preparedNames.size + 1}`
		preparedNames.set(text, name)
	}
	return name
}

export function createGuardedPool(pool: pg.Pool, guard: DatabaseGuard): PostgresPool {
	async function acquire(): Promise<pg.PoolClient> {
		guard.assertAvailable()
		try {
			// A client that arrives after the guard gave up on it goes back, closed.
			return await guard.watch(pool.connect(), (client) => client.release(true))
		} catch (error) {
			if (error instanceof StorageUnavailable || !isConnectionFailure(error)) throw error
			// Refused: down at once, so that everything after this fails fast, this request's other
			// calls included. Any other failure (a timeout, a reset) is checked by the probe first.
			if (isRefusal(error)) guard.down(error)
			else guard.suspect()
			throw unavailableError(guard.retryAfterSeconds, error)
		}
	}

	return {
		options: pool.options,
		async connect() {
			return guardedClient(await acquire(), acquire, guard)
		},
		async end() {
			guard.stop()
			if (!pool.ending) await pool.end()
		},
	}
}

function guardedClient(
	first: pg.PoolClient,
	acquire: () => Promise<pg.PoolClient>,
	guard: DatabaseGuard,
): PostgresPoolClient {
	let inner: pg.PoolClient | undefined
	let inTransaction = false
	/** The connection died inside a transaction: the transaction died with it. */
	let lost = false
	// pg's pool stops listening to a client it has lent out: an error between two statements
	// (the backend killed) must be heard here, or it would end the process. The next statement on
	// it is then refused by pg unsent, and goes to a new connection if that is safe.
	const onError = () => guard.suspect()
	const hold = (client: pg.PoolClient) => {
		client.on('error', onError)
		inner = client
	}
	const letGo = (destroy?: boolean) => {
		const client = inner
		inner = undefined
		if (!client) return
		client.off('error', onError)
		client.release(destroy)
	}
	const drop = () => letGo(true)
	hold(first)

	async function query(text: string, parameters: readonly unknown[]) {
		if (lost) {
			// Kysely rolls back after a failed statement; there is nothing left to roll back.
			if (/^\s*rollback\s*$/i.test(text)) {
				lost = false
				inTransaction = false
				return { command: 'ROLLBACK', rowCount: 0, rows: [] }
			}
			throw unavailableError(guard.retryAfterSeconds)
		}
		const repeatable = !inTransaction && (beginsTransaction(text) || isPlainRead(text))
		for (let attempt = 0; ; attempt++) {
			if (!inner) hold(await acquire())
			const client = inner as pg.PoolClient
			try {
				// Down since the last statement: nothing more is sent on this connection (a COMMIT
				// sent now could not be confirmed).
				guard.assertAvailable()
				const values = parameters.map(storable)
				const name = isMarked(text) ? preparedName(text) : undefined
				const result = await guard.watch(
					name ? client.query({ name, text, values }) : client.query(text, values),
				)
				if (beginsTransaction(text)) inTransaction = true
				else if (endsTransaction(text)) inTransaction = false
				return result
			} catch (error) {
				const abandoned = error instanceof StorageUnavailable
				if (!abandoned && !isConnectionFailure(error)) throw error
				drop()
				if (abandoned) {
					if (inTransaction) lost = true
					throw error
				}
				guard.suspect()
				const safe = repeatable || (!inTransaction && wasNotSent(error))
				if (attempt < maxRepeats && safe) continue
				if (inTransaction) lost = true
				throw unavailableError(guard.retryAfterSeconds, error)
			}
		}
	}

	return {
		get processID() {
			return (inner as { processID?: number } | undefined)?.processID
		},
		query: query as unknown as PostgresPoolClient['query'],
		release: letGo,
	}
}
