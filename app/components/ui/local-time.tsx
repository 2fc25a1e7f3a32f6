import { useEffect, useState } from 'react'

function format(iso: string, withTime: boolean, timeZone?: string): string {
	const text = new Intl.DateTimeFormat('en-GB', {
		dateStyle: 'medium',
		timeStyle: withTime ? 'short' : undefined,
		timeZone,
	}).format(new Date(iso))
	return timeZone === 'UTC' && withTime ? `${text} UTC` : text
}

/**
 * A time in the reader's own zone. The server renders it in UTC (it cannot know the zone), and
 * the browser switches to local time after hydration, so the two renders still agree.
 */
export function LocalTime({ iso, time = false }: { iso: string; time?: boolean }) {
	const [text, setText] = useState(() => format(iso, time, 'UTC'))
	useEffect(() => setText(format(iso, time)), [iso, time])
	return <time dateTime={iso}>{text}</time>
}
