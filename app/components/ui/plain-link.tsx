// The public pages' links (the header's, the footer's, each card's title, tags and authors):
// plain anchors, followed client-side by one set of listeners on the document
// (plain-link-navigation.tsx), where a <Link> costs each link its own hooks and path resolution
// on every server render (decisions 041 and 044).
/**
 * A same-site link as a plain anchor; PlainLinkNavigation follows it without a page load and,
 * with `prefetch="intent"`, fetches its page when a reader points at it or focuses it.
 * `reloadDocument` leaves it to the browser: a whole page load, as a <Link reloadDocument>.
 * `current` marks the link to the page being read (aria-current), as a <NavLink> does.
 */
export function PlainLink({
	to,
	className,
	prefetch,
	reloadDocument = false,
	current = false,
	children,
}: {
	to: string
	className?: string
	prefetch?: 'intent'
	reloadDocument?: boolean
	current?: boolean
	children: React.ReactNode
}) {
	// Followed by the document's listeners unless the page must load whole. data-discover: React
	// Router fetches the route's code for it as it does for a <Link>'s.
	const followed = !reloadDocument
	return (
		<a
			className={className}
			href={to}
			aria-current={current ? 'page' : undefined}
			data-discover={followed ? 'true' : undefined}
			data-plain-link={followed ? '' : undefined}
			data-prefetch={followed ? prefetch : undefined}
		>
			{children}
		</a>
	)
}

/**
 * Whether a link leads to the page being read or to a section it is in, as a <NavLink> decides:
 * `/articles` is current on `/articles` and `/articles/peat`, not on `/articles-old`.
 */
export function isCurrentPath(pathname: string, to: string): boolean {
	const target = (to.split(/[?#]/)[0] ?? '').toLowerCase()
	const here = pathname.toLowerCase()
	if (here === target || target === '') return here === target
	if (target === '/') return false
	const section = target.endsWith('/') ? target : `${target}/`
	return here.startsWith(section)
}
