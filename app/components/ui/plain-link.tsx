// Links repeated many times on a page (each card's tags and authors): plain anchors, followed
// client-side by one listener on the document (use-plain-link-navigation.ts), where a <Link>
// costs each link its own hooks and path resolution on every server render (decision 041).
/** A same-site link as a plain anchor; usePlainLinkNavigation follows it without a page load. */
export function PlainLink({
	to,
	className,
	children,
}: {
	to: string
	className?: string
	children: React.ReactNode
}) {
	// data-discover: React Router fetches the route's code for it as it does for a <Link>'s.
	return (
		<a href={to} className={className} data-discover="true" data-plain-link="">
			{children}
		</a>
	)
}
