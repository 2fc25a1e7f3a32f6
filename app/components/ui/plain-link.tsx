// Links repeated many times on a page (each card's title, tags and authors): plain anchors,
// followed client-side by one set of listeners on the document (plain-link-navigation.tsx), where
// a <Link> costs each link its own hooks and path resolution on every server render (decision 041).
/**
 * A same-site link as a plain anchor; PlainLinkNavigation follows it without a page load and,
 * with `prefetch="intent"`, fetches its page when a reader points at it or focuses it.
 * `reloadDocument` leaves it to the browser: a whole page load, as a <Link reloadDocument>.
 */
export function PlainLink({
	to,
	className,
	prefetch,
	reloadDocument = false,
	children,
}: {
	to: string
	className?: string
	prefetch?: 'intent'
	reloadDocument?: boolean
	children: React.ReactNode
}) {
	if (reloadDocument) {
		return (
			<a href={to} className={className}>
				{children}
			</a>
		)
	}
	// data-discover: React Router fetches the route's code for it as it does for a <Link>'s.
	return (
		<a
			href={to}
			className={className}
			data-discover="true"
			data-plain-link=""
			data-prefetch={prefetch}
		>
			{children}
		</a>
	)
}
