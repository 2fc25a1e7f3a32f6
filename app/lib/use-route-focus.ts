// Where a reader is after following a link. A full page load puts a screen reader at the start of
// the new page; a client-side navigation changes the page under it in silence, with focus left
// on a link that may be gone. So, after moving to another address, focus goes to the new page's
// main heading (its name is read out), or to <main> when the page has none. A page whose point is
// one field (an empty search) marks it `data-route-focus`, and focus goes there instead.
import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'

export function useRouteFocus(): void {
	const { pathname } = useLocation()
	const previous = useRef(pathname)
	useEffect(() => {
		// The first render (hydration) and a change of query or hash alone (a filter, a page of
		// a list) leave focus where the reader put it.
		if (previous.current === pathname) return
		previous.current = pathname
		const main = document.getElementById('main')
		const field = main?.querySelector<HTMLElement>('[data-route-focus]')
		if (field) {
			field.focus({ preventScroll: true })
			return
		}
		const heading = main?.querySelector<HTMLElement>('h1')
		if (heading && !heading.hasAttribute('tabindex'))
			heading.setAttribute('tabindex', '-1')
			// The scroll position is React Router's to set (top, or where the reader was on Back).
		;(heading ?? main)?.focus({ preventScroll: true })
	}, [pathname])
}
