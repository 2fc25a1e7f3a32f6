// What protects the staff area: API keys and the rate limits shared by instances.
export interface ApiKeyRecord {
	id: number
	name: string
	/** The first characters of the key, to tell keys apart; the key itself is never stored. */
	prefix: string
	createdBy: string
	createdAt: string
	lastUsedAt: string | null
	revokedAt: string | null
}

export interface ApiKeyRepository {
	create(key: {
		name: string
		keyHash: string
		prefix: string
		createdBy: string
	}): Promise<ApiKeyRecord>
	list(): Promise<ApiKeyRecord[]>
	/** The key with this hash when it has not been revoked; marks it used. */
	useByHash(keyHash: string): Promise<ApiKeyRecord | undefined>
	revoke(id: number): Promise<boolean>
}

export interface RateLimitHit {
	allowed: boolean
	/** Hits counted in the current window, this one included. */
	count: number
	/** When the window ends, in ms since the epoch. */
	resetAt: number
}

export interface RateLimitRepository {
	/**
	 * Counts one hit against `key` in a fixed window, atomically (instances share the count),
	 * and says whether it is within `max`.
	 */
	hit(key: string, max: number, windowMs: number, now?: number): Promise<RateLimitHit>
	clear(key: string): Promise<void>
	/** Deletes counters whose window began before `before` (ms since the epoch); returns how many. */
	prune(before: number): Promise<number>
}

/** A staff account as the team page shows it; sign-in itself is better-auth's. */
export interface AccountRecord {
	id: string
	name: string
	email: string
	/** admin or editor. */
	role: string
	/** When an admin deactivated it; null while it may sign in. */
	deactivatedAt: string | null
}

export type AccountChange = { role: string } | { active: boolean }

export type AccountChangeResult =
	| { ok: true; account: AccountRecord }
	| { ok: false; reason: 'missing' }
	/** The feature's rule said no, in words for the person who asked. */
	| { ok: false; reason: 'refused'; message: string }

export interface AccountRepository {
	/** Every account, by name, then address. */
	list(): Promise<AccountRecord[]>
	find(id: string): Promise<AccountRecord | undefined>
	/**
	 * Makes the account and its password in one transaction: a crash between the two must not
	 * leave an account that can never sign in. Throws when the address is taken (the caller
	 * checks first; this is the race).
	 */
	create(
		account: Omit<AccountRecord, 'deactivatedAt'>,
		credential: { id: string; passwordHash: string },
		now: Date,
	): Promise<void>
	/**
	 * Sets the staff area's language the account chose: an interface language code, or '' to
	 * follow the browser among the site's languages. False when there is no such account.
	 */
	setInterfaceLanguage(userId: string, language: string, now: Date): Promise<boolean>
	/** Sets the password and ends every session of the account, in one transaction. */
	setPassword(userId: string, passwordHash: string, now: Date): Promise<void>
	/**
	 * Changes the role or the active state in one transaction that first reads (and on
	 * PostgreSQL locks) the active admins, so `allow` decides on what is committed: of two admins
	 * demoting each other at once, the second is judged after the first. `allow` returns a
	 * refusal in words, or null. Deactivating ends the account's sessions in the same commit.
	 */
	change(
		userId: string,
		change: AccountChange,
		allow: (account: AccountRecord, activeAdminIds: string[]) => string | null,
		now: Date,
	): Promise<AccountChangeResult>
}
