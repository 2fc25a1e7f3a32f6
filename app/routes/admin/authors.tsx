import { Link } from 'react-router'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/authors'

// Every author profile: the team's and guests' (a name written on an article makes one).

export function meta() {
	return [{ title: 'Authors · Canopy' }, { name: 'robots', content: 'noindex' }]
}

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
	return (
		<>
			<h1>Authors</h1>
			<p>
				Each author has a public page with their bio and articles. A team member’s profile is made
				the first time they write; a guest’s when an article first names them.
			</p>
			{authors.length === 0 ? (
				<p>No authors yet.</p>
			) : (
				<ul className="term-list">
					{authors.map((author) => (
						<li key={author.id}>
							<Link to={`/admin/authors/${author.id}`}>{author.name}</Link>{' '}
							<span className="hint">
								{publicPath('author', author.slug)} ·{' '}
								{author.articles === 1
									? '1 published article'
									: `${author.articles} published articles`}
								{author.account ? ' · team member' : ' · guest'}
							</span>
						</li>
					))}
				</ul>
			)}
		</>
	)
}
