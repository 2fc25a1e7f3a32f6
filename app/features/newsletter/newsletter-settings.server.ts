// The digest's schedule, kept in the site's settings.
import type { Storage } from '#storage/port/storage.ts'
import {
	type DigestSchedule,
	defaultSchedule,
	digestScheduleSchema,
} from './newsletter-settings.ts'

const keys = {
	day: 'newsletter.digest_day',
	hour: 'newsletter.digest_hour',
	timeZone: 'newsletter.time_zone',
}

export async function getDigestSchedule(storage: Storage): Promise<DigestSchedule> {
	const all = await storage.settings.all()
	const parsed = digestScheduleSchema.safeParse({
		day: all[keys.day] ?? defaultSchedule.day,
		hour: all[keys.hour] ?? defaultSchedule.hour,
		timeZone: all[keys.timeZone] ?? defaultSchedule.timeZone,
	})
	return parsed.success ? parsed.data : defaultSchedule
}

export function saveDigestSchedule(storage: Storage, schedule: DigestSchedule) {
	return storage.settings.set({
		[keys.day]: String(schedule.day),
		[keys.hour]: String(schedule.hour),
		[keys.timeZone]: schedule.timeZone,
	})
}
