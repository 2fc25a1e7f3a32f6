// Sends one screen view when a page first loads and one on every route change after it.
import { useEffect } from 'react'
import { useLocation, useMatches } from 'react-router'
import { createScreenViews, optedOut, type ScreenHandle, sendScreenView } from './screen-view.ts'

// Kept by the module, not the component: the root's error page replaces App (and its state),
// and a reader who leaves an error page has still come from it.
const next = createScreenViews()

/** `screen` names the screen itself (an error page); otherwise the deepest route's handle does. */
export function useScreenViews(screen?: string): void {
	const location = useLocation()
	const deepest = useMatches().at(-1)
	const name = screen ?? (deepest?.handle as ScreenHandle | undefined)?.screen ?? deepest?.id ?? ''
	useEffect(() => {
		if (optedOut(navigator, window)) return
		// Effects run after React has committed the new route, its <title> included.
		const view = next(
			location,
			name,
			document.title,
			document.referrer,
			innerWidth,
			navigator.language,
		)
		if (view) sendScreenView(view)
	}, [location, name])
}
