// Leaving a form with unsaved changes asks first: inside the app (React Router's blocker, with a
// dialog of our own) and when the tab is closed or reloaded (the browser's own question).
import { Trans } from '@lingui/react/macro'
import { type RefObject, useEffect } from 'react'
import { useBlocker } from 'react-router'

/** Leaving with unsaved changes asks first: inside the app (the blocker), and when closing the tab. */
export function useLeaveGuard(dirtyRef: RefObject<boolean>, dirty: boolean) {
	const blocker = useBlocker(
		({ currentLocation, nextLocation }) =>
			dirtyRef.current && currentLocation.pathname !== nextLocation.pathname,
	)
	useEffect(() => {
		if (!dirty) return
		const warn = (event: BeforeUnloadEvent) => event.preventDefault()
		window.addEventListener('beforeunload', warn)
		return () => window.removeEventListener('beforeunload', warn)
	}, [dirty])
	return blocker
}

/** The question a blocked navigation asks. */
export function LeaveDialog({ onStay, onLeave }: { onStay: () => void; onLeave: () => void }) {
	return (
		<div role="alertdialog" aria-modal="false" aria-labelledby="leave-title" className="leave">
			<p id="leave-title">
				<Trans>
					<strong>You have unsaved changes.</strong> Leave this page and lose them?
				</Trans>
			</p>
			<button type="button" onClick={onStay}>
				<Trans>Stay and keep editing</Trans>
			</button>{' '}
			<button type="button" className="secondary" onClick={onLeave}>
				<Trans>Leave without saving</Trans>
			</button>
		</div>
	)
}
