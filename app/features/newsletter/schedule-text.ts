// When the weekly digest goes out, in the interface's language, for the staff's newsletter page
// and a reader's preferences page alike.
import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { DigestSchedule } from './newsletter-settings.ts'

/** "Mondays at 08:00 (Europe/Berlin)". */
export function scheduleText(i18n: I18n, schedule: DigestSchedule): string {
	const time = `${String(schedule.hour).padStart(2, '0')}:00`
	const timeZone = schedule.timeZone
	const byDay: MessageDescriptor[] = [
		msg`Sundays at ${time} (${timeZone})`,
		msg`Mondays at ${time} (${timeZone})`,
		msg`Tuesdays at ${time} (${timeZone})`,
		msg`Wednesdays at ${time} (${timeZone})`,
		msg`Thursdays at ${time} (${timeZone})`,
		msg`Fridays at ${time} (${timeZone})`,
		msg`Saturdays at ${time} (${timeZone})`,
	]
	const text = byDay[schedule.day]
	return text ? i18n._(text) : `${schedule.day} ${time} (${timeZone})`
}
