// /search?q=: readers' search of every published article and page, as a plain GET form that works
// without JavaScript; the matched words marked in a snippet of each result, ten to a page. Not
// for search engines (noindex), never cached (every query is its own page).
import type { I18n } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, redirect } from 'react-router'
import { SearchField } from '#app/components/ui/search-field.tsx'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { PublishedDate } from '#app/features/articles/article-card.tsx'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { searchSite } from '#app/features/search/search.server.ts'
import { resultsPerPage } from '#app/features/search/search-limits.ts'
import { clientIpContext, servicesContext } from '#app/lib/context.server.ts'
import { textLanguage } from '#app/lib/interface-language.ts'
import { rootData, rootI18n } from '#app/lib/root-data.ts'
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
	// A page past the last (an old link, a page number typed): the last page of results.
	if (found.state === 'results' && found.results.length === 0 && found.total > 0)
		throw redirect(pageLink(found.q, found.pages))
	return found
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
	const { site } = rootData(matches)
	const i18n = rootI18n(matches)
	const siteTitle = site.title
	const q = loaderData?.q ? namedQuery(loaderData.q) : ''
	return [
		{
			title: q ? i18n._(msg`“${q}” · Search · ${siteTitle}`) : i18n._(msg`Search · ${siteTitle}`),
		},
		{ name: 'robots', content: 'noindex' },
	]
}

/**
 * The search's refusal (English: written where macros cannot run) in the interface's language,
 * where the catalogue has a message with that text as its id (app/lib/form-messages.ts).
 */
function problemText(i18n: I18n, text: string): string {
	return Object.hasOwn(i18n.messages, text) ? i18n._(text) : text
}

/** The words searched for, to be named in quotes: a phrase searched whole not as “"coral reefs"”. */
function namedQuery(typed: string): string {
	return /^\s*["“”«»„]([^"“”«»„]+)["“”«»„]\s*$/.exec(typed)?.[1] ?? typed
}

function pageLink(q: string, page: number) {
	return `/search?${new URLSearchParams({ q, ...(page > 1 ? { page: String(page) } : {}) })}`
}

export default function Search({ loaderData, matches }: Route.ComponentProps) {
	const found = loaderData
	const { t, i18n } = useLingui()
	// A result naming no language is in the site's, whatever the reader's interface is in.
	const siteLanguage = rootData(matches).site.language
	return (
		<div className="page narrow search-page">
			<h1>
				<Trans>Search</Trans>
			</h1>
			<Form
				method="get"
				action="/search"
				role="search"
				aria-label={t`Articles and pages`}
				className="search-form"
			>
				<label htmlFor="search-q">
					<Trans>Words to look for</Trans>
				</label>
				<div className="search-row">
					{/* Reached by the header's search link, the page is for typing in. */}
					<SearchField
						id="search-q"
						defaultValue={found.q}
						describedBy="search-hint"
						routeFocus={!found.q}
					/>
					<button type="submit">
						<Trans context="the button that runs a search">Search</Trans>
					</button>
				</div>
				<p id="search-hint" className="hint">
					<Trans>
						Every word must be there. “Quotes” for words together, -word to leave one out, OR for
						either.
					</Trans>
				</p>
			</Form>
			{found.state === 'refused' ? (
				<p role="alert" className="form-error">
					{problemText(i18n, found.problem)}
				</p>
			) : found.state === 'limited' ? (
				<p role="alert" className="form-error">
					<LimitedNotice retryAfterSeconds={found.retryAfterSeconds} />
				</p>
			) : found.state === 'results' ? (
				<section aria-labelledby="results-heading">
					<h2 id="results-heading" className="results-count" aria-live="polite">
						<ResultCount q={found.q} total={found.total} more={found.more} />
					</h2>
					{found.total === 0 ? (
						<p>
							<Trans>
								Try fewer words, another spelling, or the start of a word.{' '}
								<Link to="/articles">See every article</Link>.
							</Trans>
						</p>
					) : (
						<ol className="search-results" start={(found.page - 1) * resultsPerPage + 1}>
							{found.results.map((result) => (
								<li key={`${result.kind}/${result.slug}`}>
									{/* Its title and words in their own language and direction (an Arabic
									    result on an English page reads right to left). */}
									<h3 {...textLanguage(result.language || siteLanguage)}>
										<Link to={publicPath(result.kind, result.slug)}>{result.title}</Link>
									</h3>
									<p className="search-snippet" {...textLanguage(result.language || siteLanguage)}>
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
											<PublishedDate iso={result.publishedAt} />
										</p>
									) : null}
								</li>
							))}
						</ol>
					)}
					{found.pages > 1 ? (
						<nav aria-label={t`Result pages`} className="pager">
							{found.page > 1 ? (
								<Link to={pageLink(found.q, found.page - 1)} rel="prev">
									<Trans>Previous results</Trans>
								</Link>
							) : null}
							<PageOf page={found.page} pages={found.pages} />
							{found.page < found.pages ? (
								<Link to={pageLink(found.q, found.page + 1)} rel="next">
									<Trans>More results</Trans>
								</Link>
							) : null}
						</nav>
					) : null}
				</section>
			) : null}
		</div>
	)
}

function LimitedNotice({ retryAfterSeconds }: { retryAfterSeconds: number }) {
	const { t } = useLingui()
	return t`That was many searches in a minute. Try again in ${plural(retryAfterSeconds, { one: '# second', other: '# seconds' })}.`
}

/** The results heading: how many were found for the words searched. */
function ResultCount({ q: typed, total, more }: { q: string; total: number; more: boolean }) {
	const { t } = useLingui()
	const q = namedQuery(typed)
	if (total === 0) return t`Nothing matches “${q}”.`
	return more
		? t`More than ${plural(total, { one: '# result', other: '# results' })} for “${q}”`
		: t`${plural(total, { one: '# result', other: '# results' })} for “${q}”`
}

function PageOf({ page, pages }: { page: number; pages: number }) {
	return (
		<span>
			<Trans>
				Page {page} of {pages}
			</Trans>
		</span>
	)
}
