import { Trans, useLingui } from '@lingui/react/macro'
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
	const { t } = useLingui()
	if (pages <= 1) return null
	return (
		<nav aria-label={t`Pages`} className="pager">
			{page > 1 ? (
				<Link to={link({ page: String(page - 1) })}>
					<Trans context="a list's page of newer items">Newer</Trans>
				</Link>
			) : null}
			<span>
				<Trans>
					Page {page} of {pages}
				</Trans>
			</span>
			{page < pages ? (
				<Link to={link({ page: String(page + 1) })}>
					<Trans context="a list's page of older items">Older</Trans>
				</Link>
			) : null}
		</nav>
	)
}
