import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import type { ScreenHandle } from '#app/features/analytics/screen-view.ts'
import { listInReaderLanguage } from '#app/features/articles/articles.server.ts'
import { LiveArticleList } from '#app/features/articles/live-article-list.tsx'
import { ListLanguageNote } from '#app/features/articles/translations.tsx'
import { NotifySlot } from '#app/features/push/notify-slot.tsx'
import { servicesContext } from '#app/lib/context.server.ts'
import { listLanguage, readerListLanguage } from '#app/lib/i18n.server.ts'
import { rootData, rootI18n } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'
import type { Route } from './+types/articles'

export const handle = { screen: 'articles' } satisfies ScreenHandle

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage, remoteConfig } = context.get(servicesContext)
	const cursor = new URL(request.url).searchParams.get('cursor')
	const [{ articles_page_size: limit }, language] = await Promise.all([
		remoteConfig.valuesFor(request),
		readerListLanguage(request, context),
	])
	const { everyLanguage, ...page } = await listInReaderLanguage(storage, {
		cursor,
		limit,
		language: language.filter,
	})
	return { ...page, isFirstPage: !cursor, language: listLanguage(language, everyLanguage) }
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	const i18n = rootI18n(matches)
	const siteTitle = site.title
	return [
		...pageMeta({
			title: i18n._(msg`Articles`),
			description: i18n._(msg`The latest articles from ${siteTitle}, newest first.`),
			url: absoluteUrl(siteUrl, '/articles'),
			siteTitle: site.title,
		}),
		// Older pages are reachable by link but the first page is the one to index.
		...(loaderData?.isFirstPage === false ? [{ name: 'robots', content: 'noindex, follow' }] : []),
	]
}

export default function Articles({ loaderData }: Route.ComponentProps) {
	const { t } = useLingui()
	const { language } = loaderData
	return (
		<div className="page articles">
			<header className="list-header">
				<h1>
					<Trans>Articles</Trans>
				</h1>
				<NotifySlot />
			</header>
			{language.offered ? (
				<ListLanguageNote
					locale={language.locale}
					all={!language.filter}
					noneInLanguage={language.noneInReaderLanguage}
					path="/articles"
				/>
			) : null}
			<LiveArticleList
				initial={loaderData.items}
				changeId={loaderData.changeId}
				isFirstPage={loaderData.isFirstPage}
				nextCursor={loaderData.nextCursor}
				path={language.filter || !language.offered ? '/articles' : '/articles?lang=all'}
				language={language.filter}
				empty={t`Nothing published yet. New articles appear here as soon as they are published.`}
			/>
		</div>
	)
}
