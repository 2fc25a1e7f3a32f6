// A stand-in for a visitor that holds no address: sha256 over a salt made for the site's day (in
// its time zone, the days its analytics count visitors by) and
// whatever identifies the visitor for the purpose (the IP for a rate limit; later the IP and the
// user agent for analytics). The salt is random, made by whichever instance asks first
// (settings.setIfAbsent, so every instance hashes with the same one), and a new day brings a new
// salt: the same visitor gets an unrelated hash tomorrow, and without the salt nobody can test an
// address against a stored hash.
import { createHash, randomBytes } from 'node:crypto'
import { siteDay } from '#app/features/site/site-settings.server.ts'
import type { PeriodicJobSpec } from '#app/lib/jobs.ts'
import type { Storage } from '#storage/port/storage.ts'

const saltPrefix = 'privacy.salt.'

// A day's salt never changes once stored, so one read per process per day is enough.
const saltCache = new WeakMap<Storage, Map<string, Promise<string>>>()

function daySalt(storage: Storage, day: string): Promise<string> {
	let byDay = saltCache.get(storage)
	if (!byDay) {
		byDay = new Map()
		saltCache.set(storage, byDay)
	}
	let salt = byDay.get(day)
	if (!salt) {
		// Only today's (and, around midnight, yesterday's) is needed again.
		if (byDay.size > 2) byDay.clear()
		salt = storage.settings.setIfAbsent(
			`${saltPrefix}${day}`,
			randomBytes(32).toString('base64url'),
		)
		salt.catch(() => byDay.delete(day))
		byDay.set(day, salt)
	}
	return salt
}

/**
 * A hex sha256 of the day's salt and `parts` (say, a purpose and an IP address). The same parts
 * give the same hash all day (UTC) and an unrelated one the next day. Put a purpose among the
 * parts, so hashes made for one use cannot be matched with another's.
 */
export async function visitorHash(storage: Storage, parts: string[], now: Date): Promise<string> {
	return visitorHashOn(storage, parts, await siteDay(storage, now))
}

/** The same, for a site's day the caller has already read (analytics stores it with the view). */
export async function visitorHashOn(
	storage: Storage,
	parts: string[],
	day: string,
): Promise<string> {
	const salt = await daySalt(storage, day)
	const hash = createHash('sha256').update(salt)
	// Length-prefixed, so ['ab', 'c'] and ['a', 'bc'] differ.
	for (const part of parts) hash.update(`\u0000${part.length}:${part}`)
	return hash.digest('hex')
}

/**
 * Deletes every day's salt but today's, and rate-limit counters older than a day: once a salt is
 * gone, no one (not even with the database) can test an address against that day's hashes.
 * Run hourly by server/jobs/privacy-cleanup.ts; returns what was deleted.
 */
export async function forgetOldSalts(
	storage: Storage,
	now: Date,
): Promise<{ salts: number; counters: number }> {
	const today = await siteDay(storage, now)
	// This process's copies go too (other instances drop theirs as their days turn).
	for (const day of [...(saltCache.get(storage)?.keys() ?? [])])
		if (day !== today) saltCache.get(storage)?.delete(day)
	const salts = await storage.settings.deleteByPrefix(saltPrefix, [`${saltPrefix}${today}`])
	const counters = await storage.rateLimits.prune(now.getTime() - 24 * 60 * 60 * 1000)
	return { salts, counters }
}

/**
 * Every hour, once across instances: past days' salts and stale rate-limit counters forgotten.
 * It only deletes, each step in one statement: a pass cut off is finished by the next.
 */
export const privacyCleanupJob: PeriodicJobSpec<void> = {
	name: 'privacy-cleanup',
	async pass({ storage, logger, clock }) {
		try {
			const forgotten = await forgetOldSalts(storage, clock())
			if (forgotten.salts > 0) logger.info('privacy: past days’ salts deleted', forgotten)
		} catch (error) {
			logger.warn('privacy: could not delete past salts; will retry', { error })
		}
	},
}
