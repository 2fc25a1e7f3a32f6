import { Link } from 'react-router'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/tags'

// Every tag, with how many published articles show it; each opens its page to rename, describe,
// merge or delete it. Tags are made by naming them on an article.

export function meta() {
	return [{ title: 'Tags · Canopy' }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ context }: Route.LoaderArgs) {
	return { tags: await context.get(servicesContext).storage.tags.list() }
}

export default function Tags({ loaderData }: Route.ComponentProps) {
	const { tags } = loaderData
	return (
		<>
			<h1>Tags</h1>
			<p>
				A tag is made when an article first names it. Here you can give it a better name, an
				address, a description and a cover for its page, or merge two tags into one.
			</p>
			{tags.length === 0 ? (
				<p>No tags yet. Add some to an article, separated by commas.</p>
			) : (
				<ul className="term-list">
					{tags.map((tag) => (
						<li key={tag.id}>
							<Link to={`/admin/tags/${tag.id}`}>{tag.name}</Link>{' '}
							<span className="hint">
								{publicPath('tag', tag.slug)} ·{' '}
								{tag.articles === 1 ? '1 published article' : `${tag.articles} published articles`}
							</span>
						</li>
					))}
				</ul>
			)}
		</>
	)
}
