import { msg } from '@lingui/core/macro'
import { Plural, Trans } from '@lingui/react/macro'
import { Link } from 'react-router'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { keepDataWhenNoticeLeaves, useArrivalNotice } from '#app/lib/arrival-notice.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { Route } from './+types/authors'

// Every author profile: the team's and guests' (a name written on an article makes one).

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Authors · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

// The arrival's notice leaving the address reads nothing again (arrival-notice.ts).
export const shouldRevalidate = keepDataWhenNoticeLeaves

export async function loader({ context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const [authors, accounts] = await Promise.all([storage.authors.list(), storage.accounts.list()])
	const names = new Map(accounts.map((account) => [account.id, account.name]))
	return {
		authors: authors.map((author) => ({
			...author,
			account: author.userId ? (names.get(author.userId) ?? null) : null,
		})),
	}
}

export default function Authors({ loaderData }: Route.ComponentProps) {
	const { authors } = loaderData
	const deleted = useArrivalNotice('deleted')
	return (
		<>
			<h1>
				<Trans>Authors</Trans>
			</h1>
			{deleted ? (
				<p role="status" className="notice">
					<Trans>
						The profile of {deleted} is deleted: their articles stay, without this name.
					</Trans>
				</p>
			) : null}
			<p>
				<Trans>
					Each author has a public page with their bio and articles. A team member’s profile is made
					the first time they write; a guest’s when an article first names them.
				</Trans>
			</p>
			{authors.length === 0 ? (
				<p>
					<Trans>No authors yet.</Trans>
				</p>
			) : (
				<ul className="term-list">
					{authors.map(({ id, name, slug, articles, account }) => (
						<li key={id}>
							<Link to={`/admin/authors/${id}`}>{name}</Link>{' '}
							<span className="hint">
								{publicPath('author', slug)} ·{' '}
								<Plural value={articles} one="# published article" other="# published articles" />
								{' · '}
								{account ? <Trans>team member</Trans> : <Trans>guest</Trans>}
							</span>
						</li>
					))}
				</ul>
			)}
		</>
	)
}
