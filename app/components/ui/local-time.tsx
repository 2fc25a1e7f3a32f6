import { useEffect, useState } from 'react'

// Making an Intl.DateTimeFormat costs about a hundred times formatting with one (0.1 ms against
// 1 µs): an editor's list of 50 articles spent an eighth of its render making them. One per kind.
const formats = new Map<string, Intl.DateTimeFormat>()

/** A date; a date and time; or, for what just happened, the time alone to the second. */
type Shown = 'date' | 'time' | 'clock'

function formatter(shown: Shown, timeZone?: string): Intl.DateTimeFormat {
	const key = `${shown}|${timeZone ?? ''}`
	let format = formats.get(key)
	if (!format) {
		format = new Intl.DateTimeFormat(
			'en-GB',
			shown === 'clock'
				? { timeStyle: 'medium', timeZone }
				: { dateStyle: 'medium', timeStyle: shown === 'time' ? 'short' : undefined, timeZone },
		)
		formats.set(key, format)
	}
	return format
}

function format(iso: string, shown: Shown, timeZone?: string): string {
	const text = formatter(shown, timeZone).format(new Date(iso))
	return timeZone === 'UTC' && shown !== 'date' ? `${text} UTC` : text
}

/**
 * A time in the reader's own zone. The server renders it in UTC (it cannot know the zone), and
 * the browser switches to local time after hydration, so the two renders still agree.
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
	const [text, setText] = useState(() => format(iso, shown, 'UTC'))
	useEffect(() => setText(format(iso, shown)), [iso, shown])
	return <time dateTime={iso}>{text}</time>
}
