// What a form's action did ("Saved."), said at the top of the page. A form sent from its foot
// (a long one, a phone's screen) would leave that news out of sight, and the pressed button,
// disabled while it was sent, drops focus to the page's start: the notice takes focus instead,
// which brings it into view and has a screen reader read it from there. Focus is left where the
// person put it meanwhile.
import { type ReactNode, useEffect, useRef } from 'react'

export function ActionNotice({
	answer,
	shown,
	children,
}: {
	/** The action's answer: a new object for each form sent. */
	answer: unknown
	/**
	 * What the page draws from the change, when it may come a render after the answer (the
	 * navigation's menus, whose forms take the pressed button with them): looked at again then.
	 */
	shown?: unknown
	children: ReactNode
}) {
	const ref = useRef<HTMLParagraphElement>(null)
	// biome-ignore lint/correctness/useExhaustiveDependencies: `shown` is a trigger only
	useEffect(() => {
		if (!answer) return
		const active = document.activeElement
		if (!active || active === document.body) ref.current?.focus()
	}, [answer, shown])
	return (
		<p role="status" className="notice" tabIndex={-1} ref={ref}>
			{children}
		</p>
	)
}
