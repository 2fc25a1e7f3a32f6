// Leaving a form with unsaved changes asks first: inside the app (React Router's blocker, with a
// dialog of our own) and when the tab is closed or reloaded (the browser's own question).
import { Trans } from '@lingui/react/macro'
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react'
import { useBlocker } from 'react-router'

/**
 * Leaving with unsaved changes asks first: inside the app (the blocker, for LeaveDialog), and when
 * closing the tab. `markDirty(true)` when the form changes, `markDirty(false)` when it is saved.
 */
export function useLeaveGuard() {
	// A ref for the blocker, which is asked at the moment of leaving; state for the tab's listener.
	const dirtyRef = useRef(false)
	const [dirty, setDirty] = useState(false)
	const markDirty = useCallback((next: boolean) => {
		dirtyRef.current = next
		setDirty(next)
	}, [])
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
	return { blocker, markDirty }
}

/**
 * The question a blocked navigation asks. It takes the focus, on its safe answer (a keyboard user
 * is not left on the link they followed, tabbing on through the page behind it); Escape stays,
 * and staying gives the focus back to where it was.
 */
export function LeaveDialog({ onStay, onLeave }: { onStay: () => void; onLeave: () => void }) {
	const stay = useRef<HTMLButtonElement>(null)
	const before = useRef<Element | null>(null)
	useEffect(() => {
		before.current = document.activeElement
		stay.current?.focus()
	}, [])
	const stayHere = () => {
		const previous = before.current
		onStay()
		if (previous instanceof HTMLElement) previous.focus()
	}
	return (
		<div
			role="alertdialog"
			aria-modal="false"
			aria-labelledby="leave-title"
			className="leave"
			onKeyDown={(event) => {
				if (event.key !== 'Escape') return
				event.preventDefault()
				stayHere()
			}}
		>
			<p id="leave-title">
				<Trans>
					<strong>You have unsaved changes.</strong> Leave this page and lose them?
				</Trans>
			</p>
			<button type="button" onClick={stayHere} ref={stay}>
				<Trans>Stay and keep editing</Trans>
			</button>{' '}
			<button type="button" className="secondary" onClick={onLeave}>
				<Trans>Leave without saving</Trans>
			</button>
		</div>
	)
}

/**
 * The leave guard of a page's forms: spread `form` on each <Form> it guards and render `dialog`.
 * Typing or choosing in a form marks that form unsaved (a file chosen excepted: an upload field
 * reports its upload through `markDirty`); sending it marks it saved, and the others keep their
 * state (a link's label typed, then another link moved: leaving still asks). `refusal`, the
 * action's answer when it refused a guarded form (a new object each time), marks the page unsaved
 * until a form is sent again. A form no longer on the page (made anew once saved) counts no more.
 */
export function useFormLeaveGuard(refusal: object | undefined) {
	const { blocker, markDirty } = useLeaveGuard()
	const unsaved = useRef(new Set<EventTarget | 'refused' | 'marked'>())
	const update = useCallback(() => {
		for (const form of unsaved.current)
			if (form instanceof Element && !form.isConnected) unsaved.current.delete(form)
		markDirty(unsaved.current.size > 0)
	}, [markDirty])
	// Counted by the effect after it, as it runs after every render.
	useEffect(() => {
		if (refusal) unsaved.current.add('refused')
	}, [refusal])
	// After each render: a form made anew (its key changed) leaves the count, a refusal joins it.
	useEffect(() => update())
	return {
		markDirty: useCallback(
			(dirty: boolean) => {
				if (dirty) unsaved.current.add('marked')
				else unsaved.current.delete('marked')
				update()
			},
			[update],
		),
		form: {
			onChange: (event: FormEvent<HTMLElement>) => {
				const { target } = event
				if (target instanceof HTMLInputElement && target.type === 'file') return
				unsaved.current.add(event.currentTarget)
				update()
			},
			onSubmit: (event: FormEvent<HTMLElement>) => {
				unsaved.current.delete(event.currentTarget)
				unsaved.current.delete('refused')
				unsaved.current.delete('marked')
				update()
			},
		},
		dialog:
			blocker.state === 'blocked' ? (
				<LeaveDialog onStay={() => blocker.reset()} onLeave={() => blocker.proceed()} />
			) : null,
	}
}

export type FormLeaveGuard = ReturnType<typeof useFormLeaveGuard>
