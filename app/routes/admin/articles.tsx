import { Form, Link, useSearchParams } from 'react-router'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { Pager } from '#app/components/ui/pager.tsx'
import { useListLink } from '#app/components/ui/use-list-link.ts'
import { listEditorArticles } from '#app/features/articles/editor.server.ts'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { readPushResults } from '#app/features/push/push-results.server.ts'
import { pushSummary, subscriberText } from '#app/features/push/push-results.tsx'
import { servicesContext } from '#app/lib/context.server.ts'
import type { ArticleKind, ArticleListItem } from '#storage/port/articles.ts'
import type { PushDeliveryCounts } from '#storage/port/push.ts'
import type { Route } from './+types/articles'

// The list of articles, and (at /admin/pages) of pages: the same list, in other words.

export function meta({ loaderData }: Route.MetaArgs) {
	const heading = loaderData?.kind === 'page' ? 'Pages' : 'Articles'
	return [{ title: `${heading} · Editor · Canopy` }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const url = new URL(request.url)
	const kind: ArticleKind = url.pathname.startsWith('/admin/pages') ? 'page' : 'article'
	const list = await listEditorArticles(storage, Object.fromEntries(url.searchParams), kind)
	const push = await readPushResults(
		storage,
		list.items.map((item) => item.id),
	)
	return { ...list, push, kind }
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
	const { items, total, page, pages, query, status, push, kind } = loaderData
	const [params] = useSearchParams()
	const link = useListLink(['deleted'])
	const pagesList = kind === 'page'
	const noun = pagesList ? 'page' : 'article'
	return (
		<>
			<div className="list-head">
				<h1>{pagesList ? 'Pages' : 'Articles'}</h1>
				<Link className="button" to={pagesList ? '/admin/pages/new' : '/admin/articles/new'}>
					New {noun}
				</Link>
			</div>
			{pagesList ? (
				<p className="subscribers">
					Pages (About, Donate, Privacy) are read at their own address, e.g. /about; they are not in
					the article list or the feeds. Add them to the menus in Site settings.
				</p>
			) : (
				<p className="subscribers">{subscriberText(push.subscribers)}.</p>
			)}
			{params.has('deleted') ? (
				<p role="status" className="notice">
					The {noun} was deleted.
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
				<label htmlFor="q">Search titles, summaries, tags, authors and text</label>
				<div className="search-row">
					<input id="q" name="q" type="search" defaultValue={query} maxLength={100} />
					<button type="submit">Search</button>
				</div>
			</Form>
			{items.length === 0 ? (
				<p>
					{query || status
						? `No ${noun} matches. Try other words or another filter.`
						: `No ${noun}s yet.`}
				</p>
			) : (
				<div className="table-wrap">
					<table className="article-table stacked-table">
						<caption>
							{total} {total === 1 ? noun : `${noun}s`}
							{query ? ` matching “${query}”` : ''}, most recently edited first
						</caption>
						<thead>
							<tr>
								<th scope="col">Title</th>
								<th scope="col">Status</th>
								{pagesList ? null : <th scope="col">Push notices</th>}
								<th scope="col">Edited</th>
								<th scope="col">Authors</th>
							</tr>
						</thead>
						<tbody>
							{items.map((item) => (
								<tr key={item.id}>
									<td>
										<Link to={`/admin/articles/${item.id}`}>{item.title}</Link>
										<br />
										<span className="hint">{publicPath(kind, item.slug)}</span>
									</td>
									<td data-label="Status">
										<Status item={item} />
									</td>
									{pagesList ? null : (
										<td data-label="Push notices">{pushCell(item, push.byArticle[item.id])}</td>
									)}
									<td data-label="Edited">
										<LocalTime iso={item.updatedAt} time />
									</td>
									<td data-label="Authors">
										{item.authors.map((author) => author.name).join(', ')}
									</td>
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
