import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { dateFormat } from '#app/lib/format.ts'
import { useSiteTimeZone } from '#app/lib/root-data.ts'

/** A date; a date and time; or, for what just happened, the time alone to the second. */
type Shown = 'date' | 'time' | 'clock'

const options: Record<Shown, Intl.DateTimeFormatOptions> = {
	date: { dateStyle: 'medium' },
	time: { dateStyle: 'medium', timeStyle: 'short' },
	clock: { timeStyle: 'medium' },
}

function format(iso: string, shown: Shown, locale: string, timeZone: string | undefined): string {
	const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone
	const text = dateFormat(locale, zone, options[shown], shown).format(new Date(iso))
	// The zone's name beside a time of day, where it is not the reader's own.
	if (shown === 'date' || timeZone === undefined) return text
	const name = dateFormat(locale, zone, { timeZoneName: 'short' }, 'zone')
		.formatToParts(new Date(iso))
		.find((part) => part.type === 'timeZoneName')?.value
	return name ? `${text} ${name}` : text
}

/**
 * A time in the interface's language, in the reader's own zone. The server renders it in the
 * site's time zone (a setting; it cannot know the reader's), and the browser switches to local
 * time after hydration, so the two renders still agree.
 */
export function LocalTime({
	iso,
	time = false,
	clock = false,
}: {
	iso: string
	/** With the time of day. */
	time?: boolean
	/** The time of day alone, to the second ("14:27:31"): for a save just made. */
	clock?: boolean
}) {
	const shown: Shown = clock ? 'clock' : time ? 'time' : 'date'
	const { i18n } = useLingui()
	const siteZone = useSiteTimeZone()
	// English as the staff area has always shown it: "27 Nov 2026, 14:05", day first.
	const locale = i18n.locale === 'en' ? 'en-GB' : i18n.locale
	const [text, setText] = useState(() => format(iso, shown, locale, siteZone ?? 'UTC'))
	useEffect(() => setText(format(iso, shown, locale, undefined)), [iso, shown, locale])
	return <time dateTime={iso}>{text}</time>
}
