// /search?q=: readers' search of every published article and page, as a plain GET form that works
// without JavaScript; the matched words marked in a snippet of each result, ten to a page. Not
// for search engines (noindex), never cached (every query is its own page).
import { data, Form, Link } from 'react-router'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { SearchField } from '#app/components/ui/search-field.tsx'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { searchSite } from '#app/features/search/search.server.ts'
import { resultsPerPage } from '#app/features/search/search-limits.ts'
import { clientIpContext, servicesContext } from '#app/lib/context.server.ts'
import { rootData } from '#app/lib/root-data.ts'
import type { Route } from './+types/search'

export const handle = { screen: 'search' } satisfies ScreenHandle

export function headers({ loaderHeaders }: Route.HeadersArgs) {
	const retryAfter = loaderHeaders.get('Retry-After')
	return { 'Cache-Control': 'no-store', ...(retryAfter ? { 'Retry-After': retryAfter } : {}) }
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const params = new URL(request.url).searchParams
	const found = await searchSite(storage, params, context.get(clientIpContext))
	if (found.state === 'limited')
		return data(found, {
			status: 429,
			headers: { 'Retry-After': String(found.retryAfterSeconds) },
		})
	if (found.state === 'refused') return data(found, { status: 400 })
	return found
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
	const { site } = rootData(matches)
	const q = loaderData?.q
	return [
		{ title: q ? `“${q}” · Search · ${site.title}` : `Search · ${site.title}` },
		{ name: 'robots', content: 'noindex' },
	]
}

function pageLink(q: string, page: number) {
	return `/search?${new URLSearchParams({ q, ...(page > 1 ? { page: String(page) } : {}) })}`
}

export default function Search({ loaderData }: Route.ComponentProps) {
	const found = loaderData
	return (
		<div className="page narrow search-page">
			<h1>Search</h1>
			<Form
				method="get"
				action="/search"
				role="search"
				aria-label="Articles and pages"
				className="search-form"
			>
				<label htmlFor="search-q">Words to look for</label>
				<div className="search-row">
					<SearchField id="search-q" defaultValue={found.q} describedBy="search-hint" />
					<button type="submit">Search</button>
				</div>
				<p id="search-hint" className="hint">
					Every word must be there. “Quotes” for words together, -word to leave one out, OR for
					either.
				</p>
			</Form>
			{found.state === 'refused' ? (
				<p role="alert" className="form-error">
					{found.problem}
				</p>
			) : found.state === 'limited' ? (
				<p role="alert" className="form-error">
					That was many searches in a minute. Try again in {found.retryAfterSeconds} seconds.
				</p>
			) : found.state === 'results' ? (
				<section aria-labelledby="results-heading">
					<h2 id="results-heading" className="results-count" aria-live="polite">
						{found.total === 0
							? `Nothing matches “${found.q}”.`
							: found.more
								? `More than ${found.total} results for “${found.q}”`
								: `${found.total} ${found.total === 1 ? 'result' : 'results'} for “${found.q}”`}
					</h2>
					{found.total === 0 ? (
						<p>
							Try fewer words, another spelling, or the start of a word.{' '}
							<Link to="/articles">See every article</Link>.
						</p>
					) : (
						<ol className="search-results" start={(found.page - 1) * resultsPerPage + 1}>
							{found.results.map((result) => (
								<li key={`${result.kind}/${result.slug}`}>
									<h3>
										<Link to={publicPath(result.kind, result.slug)}>{result.title}</Link>
									</h3>
									<p className="search-snippet">
										{result.snippet.map((part, index) =>
											part.mark ? (
												// biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet, in order
												<mark key={index}>{part.text}</mark>
											) : (
												// biome-ignore lint/suspicious/noArrayIndexKey: as above
												<span key={index}>{part.text}</span>
											),
										)}
									</p>
									{result.kind === 'article' && result.publishedAt ? (
										<p className="meta">
											<LocalTime iso={result.publishedAt} />
										</p>
									) : null}
								</li>
							))}
						</ol>
					)}
					{found.pages > 1 ? (
						<nav aria-label="Result pages" className="pager">
							{found.page > 1 ? (
								<Link to={pageLink(found.q, found.page - 1)} rel="prev">
									Previous results
								</Link>
							) : null}
							<span>
								Page {found.page} of {found.pages}
							</span>
							{found.page < found.pages ? (
								<Link to={pageLink(found.q, found.page + 1)} rel="next">
									More results
								</Link>
							) : null}
						</nav>
					) : null}
				</section>
			) : null}
		</div>
	)
}
