// When the weekly digest goes out: a day and an hour in the site's time zone, set by an admin.
import { z } from 'zod'

export interface DigestSchedule {
	/** 0 Sunday … 6 Saturday. */
	day: number
	/** 0–23, on the hour. */
	hour: number
	/** An IANA time zone, e.g. Europe/Berlin. */
	timeZone: string
}

/** Newsletter mails per second an instance sends, unless NEWSLETTER_RATE says otherwise. */
export const defaultRate = 10
/** Permanent refusals before an address is suspended, unless NEWSLETTER_SUSPEND_AFTER says otherwise. */
export const defaultSuspendAfter = 3

export const defaultSchedule: DigestSchedule = { day: 1, hour: 8, timeZone: 'UTC' }

function isTimeZone(value: string): boolean {
	try {
		new Intl.DateTimeFormat('en', { timeZone: value })
		return true
	} catch {
		return false
	}
}

export const digestScheduleSchema = z.object({
	day: z.coerce
		.number()
		.int()
		.min(0, 'Choose a day of the week.')
		.max(6, 'Choose a day of the week.'),
	hour: z.coerce
		.number()
		.int('Choose an hour from 0 to 23.')
		.min(0, 'Choose an hour from 0 to 23.')
		.max(23, 'Choose an hour from 0 to 23.'),
	timeZone: z
		.string()
		.trim()
		.min(1, 'Enter a time zone, e.g. Europe/Berlin or America/New_York.')
		.max(64, 'Enter a time zone, e.g. Europe/Berlin or America/New_York.')
		.refine(isTimeZone, 'Enter a time zone from the list, e.g. Europe/Berlin or America/New_York.'),
})

/** What the newsletter page sets: the day and the hour (the time zone is the site's). */
export const digestTimeSchema = digestScheduleSchema.pick({ day: true, hour: true })
