import { Form, Link, useSearchParams } from 'react-router'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { Pager } from '#app/components/ui/pager.tsx'
import { useListLink } from '#app/components/ui/use-list-link.ts'
import { listEditorArticles } from '#app/features/articles/editor.server.ts'
import { readPushResults } from '#app/features/push/push-results.server.ts'
import { pushSummary, subscriberText } from '#app/features/push/push-results.tsx'
import { servicesContext } from '#app/lib/context.server.ts'
import type { ArticleListItem } from '#storage/port/articles.ts'
import type { PushDeliveryCounts } from '#storage/port/push.ts'
import type { Route } from './+types/articles'

export function meta() {
	return [{ title: 'Articles · Editor · Canopy' }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const params = Object.fromEntries(new URL(request.url).searchParams)
	const list = await listEditorArticles(storage, params)
	const push = await readPushResults(
		storage,
		list.items.map((item) => item.id),
	)
	return { ...list, push }
}

const filters = [
	{ value: null, label: 'All' },
	{ value: 'draft', label: 'Drafts' },
	{ value: 'scheduled', label: 'Scheduled' },
	{ value: 'published', label: 'Published' },
] as const

function Status({ item }: { item: ArticleListItem }) {
	if (item.status === 'published')
		return (
			<span className="badge published">
				Published
				{item.publishedAt ? (
					<>
						{' '}
						<LocalTime iso={item.publishedAt} />
					</>
				) : null}
			</span>
		)
	if (item.publishAt)
		return (
			<span className="badge scheduled">
				Scheduled for <LocalTime iso={item.publishAt} time />
			</span>
		)
	return <span className="badge draft">Draft</span>
}

function pushCell(item: ArticleListItem, counts: PushDeliveryCounts | undefined) {
	return counts ? pushSummary({ ...item, published: item.status === 'published' }, counts) : null
}

export default function Articles({ loaderData }: Route.ComponentProps) {
	const { items, total, page, pages, query, status, push } = loaderData
	const [params] = useSearchParams()
	const link = useListLink(['deleted'])
	return (
		<>
			<div className="list-head">
				<h1>Articles</h1>
				<Link className="button" to="/admin/articles/new">
					New article
				</Link>
			</div>
			<p className="subscribers">{subscriberText(push.subscribers)}.</p>
			{params.has('deleted') ? (
				<p role="status" className="notice">
					The article was deleted.
				</p>
			) : null}
			<nav aria-label="Filter by status" className="filters">
				<ul>
					{filters.map((filter) => (
						<li key={filter.label}>
							<Link
								to={link({ status: filter.value, page: null })}
								aria-current={status === filter.value ? 'page' : undefined}
							>
								{filter.label}
							</Link>
						</li>
					))}
				</ul>
			</nav>
			<Form method="get" role="search" className="search">
				{status ? <input type="hidden" name="status" value={status} /> : null}
				<label htmlFor="q">Search titles, addresses and summaries</label>
				<div className="search-row">
					<input id="q" name="q" type="search" defaultValue={query} maxLength={100} />
					<button type="submit">Search</button>
				</div>
			</Form>
			{items.length === 0 ? (
				<p>
					{query || status
						? 'No article matches. Try other words or another filter.'
						: 'No articles yet.'}
				</p>
			) : (
				<div className="table-wrap">
					<table className="article-table">
						<caption>
							{total} {total === 1 ? 'article' : 'articles'}
							{query ? ` matching “${query}”` : ''}, most recently edited first
						</caption>
						<thead>
							<tr>
								<th scope="col">Title</th>
								<th scope="col">Status</th>
								<th scope="col">Push notices</th>
								<th scope="col">Edited</th>
								<th scope="col">Author</th>
							</tr>
						</thead>
						<tbody>
							{items.map((item) => (
								<tr key={item.id}>
									<td>
										<Link to={`/admin/articles/${item.id}`}>{item.title}</Link>
										<br />
										<span className="hint">/articles/{item.slug}</span>
									</td>
									<td>
										<Status item={item} />
									</td>
									<td>{pushCell(item, push.byArticle[item.id])}</td>
									<td>
										<LocalTime iso={item.updatedAt} time />
									</td>
									<td>{item.authorName}</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			)}
			<Pager page={page} pages={pages} link={link} />
		</>
	)
}
