// "Notify me of new articles": a toggle button and a sentence saying where things stand. Its own
// chunk, loaded by notify-slot.tsx once the page is up; it needs the browser's push APIs anyway.
import { useEffect, useId, useState } from 'react'
import { keepFresh, type NotifyState, readState, turnOff, turnOn } from './notify.client.ts'

const stateText: Record<NotifyState, string> = {
	on: 'On: this browser shows a notice when an article is published.',
	off: 'Off for this browser.',
	blocked:
		'Blocked in this browser’s settings for this site. Allow notifications there, then reload.',
	unsupported:
		'This browser cannot show notifications from websites. On an iPhone or iPad, add this site to your Home Screen first.',
}

function problemText(error: unknown, turningOn: boolean): string {
	const reason =
		error instanceof Error && error.name === 'PushApiError'
			? error.message
			: 'The site or the browser’s push service could not be reached. Try again in a moment.'
	return `${turningOn ? 'Notifications were not turned on' : 'Notifications were not turned off'}. ${reason}`
}

/** offered: false when editors stopped offering notices; shown then only to turn them off. */
export default function NotifyControl({ offered }: { offered: boolean }) {
	const [state, setState] = useState<NotifyState | undefined>()
	const [busy, setBusy] = useState(false)
	const [problem, setProblem] = useState('')
	const [pressed, setPressed] = useState(false)
	const statusId = useId()

	useEffect(() => {
		let current = true
		readState().then(
			(read) => {
				if (!current) return
				setState(read)
				if (read === 'on') void keepFresh()
			},
			() => current && setState('unsupported'),
		)
		return () => {
			current = false
		}
	}, [])

	async function toggle() {
		if (busy || !state) return
		const turningOn = state !== 'on'
		setPressed(true)
		setBusy(true)
		setProblem('')
		try {
			setState(await (turningOn ? turnOn() : turnOff()))
		} catch (error) {
			setProblem(problemText(error, turningOn))
			setState(await readState().catch(() => state))
		} finally {
			setBusy(false)
		}
	}

	const available = state === 'on' || state === 'off'
	// Once pressed it stays, so the reader sees what became of it.
	if (!offered && state !== 'on' && !pressed) return null
	return (
		<div className="notify" data-state={state ?? 'checking'}>
			{available ? (
				<button
					type="button"
					className="notify-button"
					aria-pressed={state === 'on'}
					aria-describedby={statusId}
					aria-busy={busy}
					onClick={toggle}
				>
					<svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
						<path d="M12 22a2.5 2.5 0 0 0 2.4-2h-4.8a2.5 2.5 0 0 0 2.4 2Zm7-6V11a7 7 0 0 0-5.5-6.8V3a1.5 1.5 0 0 0-3 0v1.2A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z" />
					</svg>
					Notify me of new articles
				</button>
			) : (
				<p className="notify-title">Notify me of new articles</p>
			)}
			<p id={statusId} className="notify-status" role="status">
				{problem || (busy ? 'Just a moment…' : state ? stateText[state] : '')}
			</p>
		</div>
	)
}
