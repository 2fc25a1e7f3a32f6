// Which errors from the pg driver mean "the connection, or the server, is gone" (as opposed to
// an error in the statement itself), and which statements may run again on a new connection.

/** SQLSTATEs of a lost or refused connection: class 08, shutdown and startup, no free slot. */
const connectionStates = /^(08|57P0[123]$|53300$)/
const socketCodes = new Set([
	'ECONNREFUSED',
	// A Unix socket whose server is not running.
	'ENOENT',
	'ECONNRESET',
	'ECONNABORTED',
	'EPIPE',
	'ETIMEDOUT',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENOTFOUND',
	'EAI_AGAIN',
])
/** pg and pg-pool give these as plain messages, without a code. */
const driverMessages =
	/Connection terminated|not queryable|timeout expired|timeout exceeded when trying to connect|Query read timeout/

export function isConnectionFailure(error: unknown): boolean {
	if (!(error instanceof Error)) return false
	const code = (error as { code?: unknown }).code
	if (typeof code === 'string' && (connectionStates.test(code) || socketCodes.has(code)))
		return true
	if (driverMessages.test(error.message)) return true
	return error.cause !== undefined && error.cause !== error && isConnectionFailure(error.cause)
}

/**
 * A connection attempt the server refused outright: nothing listens (stopped), or PostgreSQL
 * is starting up, shutting down or recovering (57P03). No need to check again before saying so.
 */
export function isRefusal(error: unknown): boolean {
	const code = (error as { code?: unknown } | undefined)?.code
	return code === 'ECONNREFUSED' || code === 'ENOENT' || code === '57P03'
}

/**
 * pg refuses a query on a connection it already knows is dead without sending anything: such a
 * statement certainly did not run.
 */
export function wasNotSent(error: unknown): boolean {
	return error instanceof Error && /is not queryable/.test(error.message)
}

export const beginsTransaction = (text: string) => /^\s*(begin|start\s+transaction)\b/i.test(text)
export const endsTransaction = (text: string) =>
	/^\s*(commit|rollback|end|abort)\s*;?\s*$/i.test(text)

/** Functions a SELECT may call that change something: such a SELECT is not a plain read. */
const sideEffects =
	/\b(nextval|setval|pg_advisory\w*|pg_notify|pg_terminate_backend|pg_cancel_backend|set_config|lo_\w+)\s*\(|\bfor\s+(update|no\s+key\s+update|share|key\s+share)\b/i

/**
 * A statement that changes nothing, so running it twice is harmless whether or not the first
 * run reached the server: a SELECT that calls no function with side effects and locks nothing.
 */
export function isPlainRead(text: string): boolean {
	return /^\s*select\b/i.test(text) && !sideEffects.test(text)
}
