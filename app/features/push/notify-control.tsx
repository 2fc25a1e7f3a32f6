// "Notify me of new articles": a toggle button and a sentence saying where things stand. Its own
// chunk, loaded by notify-slot.tsx once the page is up; it needs the browser's push APIs anyway.
import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useId, useState } from 'react'
import { keepFresh, type NotifyState, readState, turnOff, turnOn } from './notify.client.ts'

const stateText: Record<NotifyState, MessageDescriptor> = {
	on: msg`On: this browser shows a notice when an article is published.`,
	off: msg`Off for this browser.`,
	blocked: msg`Blocked in this browser’s settings for this site. Allow notifications there, then reload.`,
	unsupported: msg`This browser cannot show notifications from websites. On an iPhone or iPad, add this site to your Home Screen first.`,
}

function problemText(i18n: I18n, error: unknown, turningOn: boolean): string {
	// Canopy's answer (push-api.ts, English: written where macros cannot run) in the interface's
	// language where its catalogue has it.
	const reason =
		error instanceof Error && error.name === 'PushApiError'
			? Object.hasOwn(i18n.messages, error.message)
				? i18n._(error.message)
				: error.message
			: i18n._(
					msg`The site or the browser’s push service could not be reached. Try again in a moment.`,
				)
	return turningOn
		? i18n._(msg`Notifications were not turned on. ${reason}`)
		: i18n._(msg`Notifications were not turned off. ${reason}`)
}

/** offered: false when editors stopped offering notices; shown then only to turn them off. */
export default function NotifyControl({ offered }: { offered: boolean }) {
	const { t, i18n } = useLingui()
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
			setProblem(problemText(i18n, error, turningOn))
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
					<Trans>Notify me of new articles</Trans>
				</button>
			) : (
				<p className="notify-title">
					<Trans>Notify me of new articles</Trans>
				</p>
			)}
			<p id={statusId} className="notify-status" role="status">
				{problem || (busy ? t`Just a moment…` : state ? i18n._(stateText[state]) : '')}
			</p>
		</div>
	)
}
