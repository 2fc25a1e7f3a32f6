// The one set of document listeners behind every PlainLink (plain-link.tsx): a click is followed
// without a page load, and pointing at or focusing a link marked for it prefetches its page as a
// <Link prefetch="intent"> would. Apart from the component so that each lands in the chunk of the
// one module that uses it (root.tsx, the article cards), not in a chunk every page would fetch.
import { useEffect, useRef, useState } from 'react'
import { PrefetchPageLinks, useLocation, useNavigate } from 'react-router'

/** How long a pointer or focus rests on a link before its page is fetched, as <Link> waits. */
const intentDelayMs = 100

function plainLinkAt(target: EventTarget | null, selector: string): HTMLAnchorElement | null {
	const anchor = target instanceof Element ? target.closest(selector) : null
	return anchor instanceof HTMLAnchorElement && anchor.origin === window.location.origin
		? anchor
		: null
}

/** Rendered once, in root.tsx. */
export function PlainLinkNavigation() {
	const navigate = useNavigate()
	const location = useLocation()
	// The page whose data and code are fetched ahead: the link the reader is pointing at, on the
	// page they were reading then (once they have followed it, there is nothing left to fetch).
	const [intent, setIntent] = useState<{ page: string; on: string } | null>(null)
	const here = useRef(location.key)
	here.current = location.key
	useEffect(() => {
		const follow = (event: MouseEvent) => {
			// What a <Link> leaves to the browser: a new tab or window, a download, another button.
			if (event.defaultPrevented || event.button !== 0) return
			if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return
			const anchor = plainLinkAt(event.target, 'a[data-plain-link]')
			if (!anchor) return
			event.preventDefault()
			const to = `${anchor.pathname}${anchor.search}${anchor.hash}`
			const { pathname, search, hash } = window.location
			// A link to the page being read replaces its history entry, as a <Link>'s does.
			navigate(to, { replace: to === `${pathname}${search}${hash}` })
		}
		let current: HTMLAnchorElement | null = null
		let timer: ReturnType<typeof setTimeout> | undefined
		const enter = (event: Event) => {
			const anchor = plainLinkAt(event.target, 'a[data-plain-link][data-prefetch]')
			// Moving between the parts of one link is still pointing at it.
			if (!anchor || anchor === current) return
			current = anchor
			clearTimeout(timer)
			timer = setTimeout(
				() => setIntent({ page: `${anchor.pathname}${anchor.search}`, on: here.current }),
				intentDelayMs,
			)
		}
		const leave = (event: MouseEvent | FocusEvent) => {
			if (!current || !(event.target instanceof Node) || !current.contains(event.target)) return
			if (event.relatedTarget instanceof Node && current.contains(event.relatedTarget)) return
			current = null
			clearTimeout(timer)
			setIntent(null)
		}
		document.addEventListener('click', follow)
		document.addEventListener('mouseover', enter)
		document.addEventListener('focusin', enter)
		document.addEventListener('touchstart', enter, { passive: true })
		document.addEventListener('mouseout', leave)
		document.addEventListener('focusout', leave)
		return () => {
			clearTimeout(timer)
			document.removeEventListener('click', follow)
			document.removeEventListener('mouseover', enter)
			document.removeEventListener('focusin', enter)
			document.removeEventListener('touchstart', enter)
			document.removeEventListener('mouseout', leave)
			document.removeEventListener('focusout', leave)
		}
	}, [navigate])
	return intent?.on === location.key ? <PrefetchPageLinks page={intent.page} /> : null
}
