import { Link } from 'react-router'

/**
 * Newer / Page n of m / Older, for a staff list shown newest first. `link` makes the address of
 * another page with the list's other parameters kept (useListLink).
 */
export function Pager({
	page,
	pages,
	link,
}: {
	page: number
	pages: number
	link: (changes: { page: string }) => string
}) {
	if (pages <= 1) return null
	return (
		<nav aria-label="Pages" className="pager">
			{page > 1 ? <Link to={link({ page: String(page - 1) })}>Newer</Link> : null}
			<span>
				Page {page} of {pages}
			</span>
			{page < pages ? <Link to={link({ page: String(page + 1) })}>Older</Link> : null}
		</nav>
	)
}
