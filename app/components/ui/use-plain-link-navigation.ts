// The one listener that follows every PlainLink (plain-link.tsx) without a page load. Apart from
// the component so that each lands in the chunk of the one module that uses it (root.tsx, the
// article cards), not in a chunk of their own that every page would fetch.
import { useEffect } from 'react'
import { useNavigate } from 'react-router'

/** Called once, in root.tsx. */
export function usePlainLinkNavigation(): void {
	const navigate = useNavigate()
	useEffect(() => {
		const follow = (event: MouseEvent) => {
			// What a <Link> leaves to the browser: a new tab or window, a download, another button.
			if (event.defaultPrevented || event.button !== 0) return
			if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return
			const anchor =
				event.target instanceof Element ? event.target.closest('a[data-plain-link]') : null
			if (!(anchor instanceof HTMLAnchorElement) || anchor.origin !== window.location.origin) return
			event.preventDefault()
			navigate(`${anchor.pathname}${anchor.search}${anchor.hash}`)
		}
		document.addEventListener('click', follow)
		return () => document.removeEventListener('click', follow)
	}, [navigate])
}
