// The one error storage throws when the database cannot be reached: PostgreSQL stopped,
// restarting, or not answering; SQLite held by another process past its wait. The HTTP layer
// answers it with 503 and Retry-After (server/outage.ts); see docs/decisions/016-database-outages.md.

// Marked with a registered symbol rather than recognised by class: the app's server bundle has
// its own copy of this module, whose class is not the one storage throws.
const mark = Symbol.for('canopy.storage-unavailable')

export class StorageUnavailable extends Error {
	override readonly name = 'StorageUnavailable'
	readonly [mark] = true
	/** How long a client should wait before trying again, in whole seconds (at least 1). */
	readonly retryAfterSeconds: number

	constructor(message: string, options: { retryAfterSeconds: number; cause?: unknown }) {
		super(message, { cause: options.cause })
		this.retryAfterSeconds = Math.max(1, Math.ceil(options.retryAfterSeconds))
		// Every job and stream that meets an outage logs it: where in the code it met it says
		// nothing the message does not, and would fill the log for as long as the outage lasts.
		this.stack = `${this.name}: ${message}`
	}
}

/**
 * The StorageUnavailable behind `error`, if any: libraries between the caller and storage
 * (better-auth) may wrap what they were thrown, so the chain of causes is followed too.
 */
export function storageOutage(error: unknown): StorageUnavailable | undefined {
	let current = error
	for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
		if ((current as Partial<Record<typeof mark, boolean>>)[mark])
			return current as StorageUnavailable
		current = current.cause
	}
	return undefined
}

/** What storage says about its database right now (storage.health). */
export interface StorageHealth {
	/**
	 * False while the database is known to be unreachable: every call then fails at once with
	 * StorageUnavailable, until a background check finds it back.
	 */
	readonly available: boolean
	/** Retry-After for an answer given now. */
	readonly retryAfterSeconds: number
}

/** SQLite's file is on this machine: it is there whenever the process is. */
export const alwaysAvailable: StorageHealth = { available: true, retryAfterSeconds: 1 }
