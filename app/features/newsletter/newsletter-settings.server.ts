// The digest's schedule, kept in the site's settings: a day and an hour in the site's time zone.
import { siteSettingsFrom } from '#app/features/site/site-settings.server.ts'
import { siteTimeZone } from '#app/features/site/site-settings.ts'
import type { Storage } from '#storage/port/storage.ts'
import {
	type DigestSchedule,
	defaultSchedule,
	digestScheduleSchema,
} from './newsletter-settings.ts'

const keys = {
	day: 'newsletter.digest_day',
	hour: 'newsletter.digest_hour',
}

export async function getDigestSchedule(storage: Storage): Promise<DigestSchedule> {
	const all = await storage.settings.all()
	const parsed = digestScheduleSchema.safeParse({
		day: all[keys.day] ?? defaultSchedule.day,
		hour: all[keys.hour] ?? defaultSchedule.hour,
		// One time zone for the whole site: the one dates are shown in (Site settings).
		timeZone: siteTimeZone(siteSettingsFrom(all)),
	})
	return parsed.success ? parsed.data : defaultSchedule
}

/** The digest's day and hour (its time zone is the site's). */
export function saveDigestSchedule(
	storage: Storage,
	schedule: Pick<DigestSchedule, 'day' | 'hour'>,
) {
	return storage.settings.set({
		[keys.day]: String(schedule.day),
		[keys.hour]: String(schedule.hour),
	})
}
