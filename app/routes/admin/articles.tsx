import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Form, Link } from 'react-router'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { Pager } from '#app/components/ui/pager.tsx'
import { useListLink } from '#app/components/ui/use-list-link.ts'
import { listEditorArticles } from '#app/features/articles/editor.server.ts'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { readPushResults } from '#app/features/push/push-results.server.ts'
import { pushSummary } from '#app/features/push/push-results.tsx'
import { keepDataWhenNoticeLeaves, useArrivalNotice } from '#app/lib/arrival-notice.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { ArticleKind, ArticleListItem } from '#storage/port/articles.ts'
import type { PushDeliveryCounts } from '#storage/port/push.ts'
import type { Route } from './+types/articles'

// The list of articles, and (at /admin/pages) of pages: the same list, in other words.

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	const title =
		loaderData?.kind === 'page'
			? i18n._(msg`Pages · Editor · Canopy`)
			: i18n._(msg`Articles · Editor · Canopy`)
	return [{ title }, { name: 'robots', content: 'noindex' }]
}

// The arrival's notice leaving the address reads nothing again (arrival-notice.ts).
export const shouldRevalidate = keepDataWhenNoticeLeaves

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
	{ value: null, label: msg`All` },
	{ value: 'draft', label: msg`Drafts` },
	{ value: 'scheduled', label: msg`Scheduled` },
	// Its own message: a filter names the articles (plural), a badge names one's state.
	{ value: 'published', label: msg({ message: 'Published', context: 'the articles filter' }) },
] as const

/** What an empty filter says when no words were searched for. */
const noneWith = {
	article: {
		draft: msg`No article drafts.`,
		scheduled: msg`No article is scheduled.`,
		published: msg`No article is published yet.`,
	},
	page: {
		draft: msg`No page drafts.`,
		scheduled: msg`No page is scheduled.`,
		published: msg`No page is published yet.`,
	},
} as const

function Status({ item }: { item: ArticleListItem }) {
	if (item.status === 'published')
		return (
			<span className="badge published">
				{item.publishedAt ? (
					<Trans>
						Published <LocalTime iso={item.publishedAt} />
					</Trans>
				) : (
					<Trans>Published</Trans>
				)}
			</span>
		)
	if (item.publishAt)
		return (
			<span className="badge scheduled">
				<Trans>
					Scheduled for <LocalTime iso={item.publishAt} time />
				</Trans>
			</span>
		)
	return (
		<span className="badge draft">
			<Trans>Draft</Trans>
		</span>
	)
}

/** "12 articles matching “soil”, most recently edited first". */
function ListCaption({ pages, total, query }: { pages: boolean; total: number; query: string }) {
	if (pages)
		return query ? (
			<Plural
				value={total}
				one={`# page matching “${query}”, most recently edited first`}
				other={`# pages matching “${query}”, most recently edited first`}
			/>
		) : (
			<Plural
				value={total}
				one="# page, most recently edited first"
				other="# pages, most recently edited first"
			/>
		)
	return query ? (
		<Plural
			value={total}
			one={`# article matching “${query}”, most recently edited first`}
			other={`# articles matching “${query}”, most recently edited first`}
		/>
	) : (
		<Plural
			value={total}
			one="# article, most recently edited first"
			other="# articles, most recently edited first"
		/>
	)
}

function pushCell(item: ArticleListItem, counts: PushDeliveryCounts | undefined, i18n: I18n) {
	return counts
		? pushSummary({ ...item, published: item.status === 'published' }, counts, i18n)
		: null
}

export default function Articles({ loaderData }: Route.ComponentProps) {
	const { items, total, page, pages, query, status, push, kind } = loaderData
	const deleted = useArrivalNotice('deleted')
	const link = useListLink(['deleted'])
	const { t, i18n } = useLingui()
	// Each row's cells are named for a phone's stacked table (the CSS shows them): looked up once.
	const labels = {
		status: t`Status`,
		push: t`Push notices`,
		edited: t`Edited`,
		authors: t`Authors`,
	}
	const pagesList = kind === 'page'
	const subscribers = push.subscribers
	return (
		<>
			<div className="list-head">
				<h1>{pagesList ? <Trans>Pages</Trans> : <Trans>Articles</Trans>}</h1>
				<Link className="button" to={pagesList ? '/admin/pages/new' : '/admin/articles/new'}>
					{pagesList ? <Trans>New page</Trans> : <Trans>New article</Trans>}
				</Link>
			</div>
			{pagesList ? (
				<p className="subscribers">
					<Trans>
						Pages (About, Donate, Privacy) are read at their own address, e.g. /about; they are not
						in the article list or the feeds. Add them to the header or the footer in{' '}
						<Link to="/admin/navigation">Navigation</Link>.
					</Trans>
				</p>
			) : (
				<p className="subscribers">
					<Plural
						value={subscribers}
						one="# reader subscribed to notices of new articles."
						other="# readers subscribed to notices of new articles."
					/>
				</p>
			)}
			{deleted ? (
				<p role="status" className="notice">
					{pagesList ? (
						<Trans>The page was deleted.</Trans>
					) : (
						<Trans>The article was deleted.</Trans>
					)}
				</p>
			) : null}
			<nav aria-label={t`Filter by status`} className="filters">
				<ul>
					{filters.map((filter) => (
						<li key={filter.value ?? 'all'}>
							<Link
								to={link({ status: filter.value, page: null })}
								aria-current={status === filter.value ? 'page' : undefined}
							>
								{i18n._(filter.label)}
							</Link>
						</li>
					))}
				</ul>
			</nav>
			<Form method="get" role="search" className="search">
				{status ? <input type="hidden" name="status" value={status} /> : null}
				<label htmlFor="q">
					<Trans>Search titles, summaries, tags, authors and text</Trans>
				</label>
				<div className="search-row">
					<input id="q" name="q" type="search" defaultValue={query} maxLength={100} />
					<button type="submit">
						<Trans>Search</Trans>
					</button>
				</div>
			</Form>
			{items.length === 0 ? (
				<p>
					{status && !query ? (
						i18n._(noneWith[pagesList ? 'page' : 'article'][status])
					) : query ? (
						pagesList ? (
							<Trans>No page matches. Try other words or another filter.</Trans>
						) : (
							<Trans>No article matches. Try other words or another filter.</Trans>
						)
					) : pagesList ? (
						<Trans>No pages yet.</Trans>
					) : (
						<Trans>No articles yet.</Trans>
					)}
				</p>
			) : (
				<div className="table-wrap">
					<table className="article-table stacked-table">
						<caption>
							<ListCaption pages={pagesList} total={total} query={query} />
						</caption>
						<thead>
							<tr>
								<th scope="col">
									<Trans>Title</Trans>
								</th>
								<th scope="col">
									<Trans>Status</Trans>
								</th>
								{pagesList ? null : (
									<th scope="col">
										<Trans>Push notices</Trans>
									</th>
								)}
								<th scope="col">
									<Trans>Edited</Trans>
								</th>
								<th scope="col">
									<Trans>Authors</Trans>
								</th>
							</tr>
						</thead>
						<tbody>
							{items.map((item) => (
								<tr key={item.id}>
									<td>
										<Link to={`/admin/articles/${item.id}`}>{item.title}</Link>
										<br />
										<span className="hint" dir="ltr">
											{publicPath(kind, item.slug)}
										</span>
									</td>
									<td data-label={labels.status}>
										<Status item={item} />
									</td>
									{pagesList ? null : (
										<td data-label={labels.push}>
											{pushCell(item, push.byArticle[item.id], i18n)}
										</td>
									)}
									<td data-label={labels.edited}>
										<LocalTime iso={item.updatedAt} time />
									</td>
									<td data-label={labels.authors}>
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
