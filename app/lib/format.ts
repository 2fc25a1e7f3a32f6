// Dates in the interface's language and the site's time zone (a setting), the same on the server
// and in the browser, so hydration agrees. Making a formatter costs about a hundred times using
// one: one per language, zone and kind.
const formats = new Map<string, Intl.DateTimeFormat>()

export function dateFormat(
	locale: string,
	timeZone: string,
	options: Intl.DateTimeFormatOptions,
	kind: string,
): Intl.DateTimeFormat {
	const key = `${kind}|${locale}|${timeZone}`
	let format = formats.get(key)
	if (!format) {
		format = new Intl.DateTimeFormat(locale, { ...options, timeZone })
		formats.set(key, format)
	}
	return format
}

const dayParts = new Map<string, Intl.DateTimeFormat>()

/**
 * The day an instant falls on in a time zone, yyyy-mm-dd: the site's day for its analytics and
 * its visitors' daily salt, not UTC's (a site in California has its evening views on its own day).
 */
export function dayIn(at: Date, timeZone: string): string {
	let format = dayParts.get(timeZone)
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone,
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
		})
		dayParts.set(timeZone, format)
	}
	const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]))
	return `${parts.year}-${parts.month}-${parts.day}`
}

// The same few dates are written on every render of a list (ten cards a page): each is
// formatted once. Up to this many are kept; then the store starts afresh.
const longDates = new Map<string, string>()
const longDatesKept = 2_000

/** "November 27, 2026" / "27 de noviembre de 2026" / "٢٧ نوفمبر ٢٠٢٦". */
export function formatDate(iso: string, locale = 'en', timeZone = 'UTC'): string {
	const key = `${locale}|${timeZone}|${iso}`
	let text = longDates.get(key)
	if (text === undefined) {
		text = dateFormat(locale, timeZone, { dateStyle: 'long' }, 'long').format(new Date(iso))
		if (longDates.size >= longDatesKept) longDates.clear()
		longDates.set(key, text)
	}
	return text
}
