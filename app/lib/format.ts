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
