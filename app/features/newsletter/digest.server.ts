// The weekly digest: once the week's hour has come (a day and an hour in the site's time zone),
// the digest of the articles published since the last one is made, once across instances (its
// slot is unique), with one delivery per digest reader; the delivery worker sends them.
import type { PeriodicJobSpec } from '#app/lib/jobs.ts'
import type { Storage } from '#storage/port/storage.ts'
import { getDigestSchedule } from './newsletter-settings.server.ts'
import type { DigestSchedule } from './newsletter-settings.ts'

const dayMs = 24 * 60 * 60 * 1000

interface LocalTime {
	year: number
	month: number
	day: number
	hour: number
	/** 0 Sunday … 6 Saturday. */
	weekday: number
}

const weekdayIndex: Record<string, number> = {
	Sun: 0,
	Mon: 1,
	Tue: 2,
	Wed: 3,
	Thu: 4,
	Fri: 5,
	Sat: 6,
}

function localTime(at: Date, timeZone: string): LocalTime {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		year: 'numeric',
		month: 'numeric',
		day: 'numeric',
		hour: 'numeric',
		hourCycle: 'h23',
		weekday: 'short',
	}).formatToParts(at)
	const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
	return {
		year: Number(part('year')),
		month: Number(part('month')),
		day: Number(part('day')),
		hour: Number(part('hour')),
		weekday: weekdayIndex[part('weekday')] ?? 0,
	}
}

/** How far the zone is ahead of UTC at `at`, in ms. */
function offsetMs(at: Date, timeZone: string): number {
	const local = localTime(at, timeZone)
	const minutes = new Intl.DateTimeFormat('en-US', { timeZone, minute: 'numeric' }).format(at)
	const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, Number(minutes))
	return asUtc - Math.floor(at.getTime() / 60_000) * 60_000
}

/** The instant a wall-clock hour of a day names in the zone (the later one, if it exists twice). */
export function zonedHour(
	year: number,
	month: number,
	day: number,
	hour: number,
	timeZone: string,
) {
	const wall = Date.UTC(year, month - 1, day, hour)
	let at = wall - offsetMs(new Date(wall), timeZone)
	at = wall - offsetMs(new Date(at), timeZone)
	return new Date(at)
}

/** The week's digest hour most recently passed at `now`, and its slot's name. */
export function latestSlot(now: Date, schedule: DigestSchedule): { slot: string; at: Date } {
	const local = localTime(now, schedule.timeZone)
	let back = (local.weekday - schedule.day + 7) % 7
	if (back === 0 && local.hour < schedule.hour) back = 7
	// The calendar day `back` days before today, in the zone: noon keeps clear of DST edges.
	const noon = new Date(Date.UTC(local.year, local.month - 1, local.day, 12) - back * dayMs)
	const date = {
		year: noon.getUTCFullYear(),
		month: noon.getUTCMonth() + 1,
		day: noon.getUTCDate(),
	}
	const at = zonedHour(date.year, date.month, date.day, schedule.hour, schedule.timeZone)
	const pad = (n: number) => String(n).padStart(2, '0')
	return { slot: `${date.year}-${pad(date.month)}-${pad(date.day)}T${pad(schedule.hour)}`, at }
}

export type DigestOutcome =
	| { made: false; slot: string }
	| { made: true; slot: string; digestId: number; articles: number; queued: number }

/** Makes the digest of the latest slot unless it is made; safe to run as often as wanted. */
export async function makeDueDigest(storage: Storage, now: Date): Promise<DigestOutcome> {
	const schedule = await getDigestSchedule(storage)
	const { slot, at } = latestSlot(now, schedule)
	const latest = await storage.newsletter.latestDigest()
	if (latest?.slot === slot) return { made: false, slot }
	// From the last digest's end, so nothing falls between two digests when the schedule moves.
	const start = latest ? new Date(latest.periodEnd) : new Date(at.getTime() - 7 * dayMs)
	if (start.getTime() >= at.getTime()) return { made: false, slot }
	const made = await storage.newsletter.createDigest(slot, { start, end: at }, now)
	if (!made) return { made: false, slot }
	return {
		made: true,
		slot,
		digestId: made.digest.id,
		articles: made.digest.articleIds.length,
		queued: made.queued,
	}
}

/** Every few minutes, once across instances (server/jobs/jobs.ts sets the interval). */
export const digestJob: PeriodicJobSpec<DigestOutcome | undefined> = {
	name: 'newsletter-digest',
	async pass({ storage, logger, clock }) {
		try {
			const outcome = await makeDueDigest(storage, clock())
			if (outcome.made) logger.info('newsletter: weekly digest made', outcome)
			return outcome
		} catch (error) {
			logger.warn('newsletter: could not make the weekly digest; will retry', { error })
			return undefined
		}
	},
}

/** Unconfirmed addresses are personal data kept for nothing: gone after a week. */
export const unconfirmedDays = 7

export const unconfirmedCleanupJob: PeriodicJobSpec<number> = {
	name: 'newsletter-unconfirmed',
	async pass({ storage, logger, clock }) {
		try {
			const deleted = await storage.newsletter.deleteUnconfirmed(
				new Date(clock().getTime() - unconfirmedDays * dayMs),
			)
			if (deleted > 0) logger.info('newsletter: unconfirmed addresses deleted', { deleted })
			return deleted
		} catch (error) {
			logger.warn('newsletter: could not delete unconfirmed addresses; will retry', { error })
			return 0
		}
	},
}
