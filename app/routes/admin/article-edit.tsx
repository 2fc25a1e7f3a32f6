import { msg } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import { useMemo } from 'react'
import { data, Form, Link, useLocation, useRouteError } from 'react-router'
import { DatabaseUnavailable, isDatabaseOutage } from '#app/components/ui/database-unavailable.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { ArticleEditor } from '#app/features/articles/article-editor.tsx'
import { previewArticle } from '#app/features/articles/editor.server.ts'
import { editArticleAction, toEditorArticle } from '#app/features/articles/editor-action.server.ts'
import { editorContext } from '#app/features/auth/session.server.ts'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { readPushResults } from '#app/features/push/push-results.server.ts'
import { PushBreakdown } from '#app/features/push/push-results.tsx'
import { imageUploadFieldStylesheet } from '#app/features/uploads/image-upload-field.tsx'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { Revision } from '#storage/port/revisions.ts'
import type { Route } from './+types/article-edit'

/** A pending revision's content, as the editor's fields hold it. */
function withoutStatus(pending: Revision) {
	return {
		slug: pending.slug,
		title: pending.title,
		summary: pending.summary,
		bodyMarkdown: pending.bodyMarkdown,
		coverImageUrl: pending.coverImageUrl,
		coverImageAlt: pending.coverImageAlt,
		seoTitle: pending.seoTitle,
		seoDescription: pending.seoDescription,
		socialImageUrl: pending.socialImageUrl,
	}
}

function articleId(raw: string): number {
	const id = Number(raw)
	if (!Number.isSafeInteger(id) || id <= 0) throw data('There is no article here.', 404)
	return id
}

export const links: Route.LinksFunction = () => [
	{ rel: 'stylesheet', href: imageUploadFieldStylesheet },
]

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	const title = loaderData?.article.title ?? i18n._(msg`Article`)
	return [
		{ title: i18n._(msg`${title} · Editor · Canopy`) },
		{ name: 'robots', content: 'noindex' },
	]
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { storage, uploadMaxBytes } = context.get(servicesContext)
	const article = await storage.articles.findById(articleId(params.id))
	if (!article) throw data('There is no article here; it may have been deleted.', 404)
	const saved = new URL(request.url).searchParams.get('saved')
	const [push, pending, original, translations] = await Promise.all([
		readPushResults(storage, [article.id]),
		storage.revisions.pending(article.id),
		article.translationOf === null ? undefined : storage.articles.findById(article.translationOf),
		// The original's editor names its translations too, not only a translation its original.
		storage.articles.translations(article.id),
	])
	const stored = {
		...toEditorArticle(article, original?.slug),
		otherLanguages: translations.map(({ id, language, title }) => ({ id, language, title })),
	}
	// Edits to a published or scheduled article not live yet: the form holds them, as they were
	// left, until Update makes them live or they are discarded.
	if (pending && pending.version === article.version) {
		const preview = await previewArticle(pending.bodyMarkdown)
		return {
			article: {
				...stored,
				...withoutStatus(pending),
				tags: pending.tags,
				authors: pending.authors,
				pendingSavedAt: pending.savedAt,
				pendingBy: pending.byName,
			},
			html: preview.ok ? preview.html : article.bodyHtml,
			saved,
			push,
			uploadMaxBytes,
		}
	}
	return { article: stored, html: article.bodyHtml, saved, push, uploadMaxBytes }
}

export function action({ request, params, context }: Route.ActionArgs) {
	const services = context.get(servicesContext)
	return editArticleAction(services, request, articleId(params.id), context.get(editorContext))
}

export default function EditArticle({ loaderData, actionData }: Route.ComponentProps) {
	const { article, html, saved, push } = loaderData
	const title = article.title
	const counts = push.byArticle[article.id]
	const { key: arrival } = useLocation()
	// The save that brought the page here (?saved=…), told once per arrival: stable while the
	// loader runs again after each autosave, so the editor does not hear it again.
	// biome-ignore lint/correctness/useExhaustiveDependencies: once per arrival, by design
	const justCreated = useMemo(
		() =>
			saved
				? { saved: { version: article.version, updatedAt: article.updatedAt, intent: saved } }
				: undefined,
		[arrival],
	)
	return (
		<>
			<p className="breadcrumb">
				{article.kind === 'page' ? (
					<Link to="/admin/pages">
						<Trans>All pages</Trans>
					</Link>
				) : (
					<Link to="/admin/articles">
						<Trans>All articles</Trans>
					</Link>
				)}
			</p>
			<h1>
				<Trans>
					Edit “<bdi>{title}</bdi>”
				</Trans>
			</h1>
			<p className="editor-state">
				{article.status === 'published' && article.publishedAt ? (
					<Trans>
						Published <LocalTime iso={article.publishedAt} /> ·{' '}
						<a href={publicPath(article.kind, article.slug)}>View it on the site</a>
					</Trans>
				) : article.publishAt ? (
					<Trans>
						Scheduled for <LocalTime iso={article.publishAt} time />
					</Trans>
				) : (
					<Trans>Draft: only editors can see it.</Trans>
				)}{' '}
				·{' '}
				<Link to={`/admin/articles/${article.id}/history`}>
					<Trans>History</Trans>
				</Link>
			</p>
			{article.pendingSavedAt ? (
				<PendingNotice
					articleId={article.id}
					version={article.version}
					savedAt={article.pendingSavedAt}
					by={article.pendingBy ?? ''}
					published={article.status === 'published'}
				/>
			) : null}
			{/* Pages never send push notices: only an article's are told. */}
			{counts && article.kind === 'article' ? (
				<PushBreakdown
					article={{ ...article, published: article.status === 'published' }}
					counts={counts}
					subscribers={push.subscribers}
				/>
			) : null}
			<ArticleEditor
				// Discarded edits: the form starts again from the live text (its fields keep what was
				// typed otherwise, and the same route does not mount it anew).
				key={saved === 'discard' ? arrival : 'editor'}
				article={article}
				actionData={actionData ?? justCreated}
				initialHtml={html}
				kind={article.kind}
				uploadMaxBytes={loaderData.uploadMaxBytes}
			/>
		</>
	)
}

/** Edits kept but not live: what Update will publish, and the way back to the live text. */
function PendingNotice({
	articleId,
	version,
	savedAt,
	by,
	published,
}: {
	articleId: number
	version: number
	savedAt: string
	by: string
	published: boolean
}) {
	return (
		<div className="notice pending-notice" role="note">
			<p>
				{published ? (
					by ? (
						<Trans>
							The form holds changes by {by}, saved <LocalTime iso={savedAt} time />, that readers
							do not see yet. Update the published article to make them live, or discard them to go
							back to the live text (they stay in the history).
						</Trans>
					) : (
						<Trans>
							The form holds changes, saved <LocalTime iso={savedAt} time />, that readers do not
							see yet. Update the published article to make them live, or discard them to go back to
							the live text (they stay in the history).
						</Trans>
					)
				) : by ? (
					<Trans>
						The form holds changes by {by}, saved <LocalTime iso={savedAt} time />, that are not in
						the scheduled version yet. Schedule it again to make them part of it, or discard them to
						go back to the scheduled text (they stay in the history).
					</Trans>
				) : (
					<Trans>
						The form holds changes, saved <LocalTime iso={savedAt} time />, that are not in the
						scheduled version yet. Schedule it again to make them part of it, or discard them to go
						back to the scheduled text (they stay in the history).
					</Trans>
				)}
			</p>
			<Form method="post" action={`/admin/articles/${articleId}`} className="form">
				<input type="hidden" name="version" value={version} />
				<button type="submit" name="intent" value="discard" className="secondary">
					<Trans>Discard these changes</Trans>
				</button>
			</Form>
		</div>
	)
}

export function ErrorBoundary() {
	if (isDatabaseOutage(useRouteError())) return <DatabaseUnavailable />
	return (
		<>
			<h1>
				<Trans>Article not found</Trans>
			</h1>
			<p>
				<Trans>
					It may have been deleted. <Link to="/admin/articles">See all articles</Link>.
				</Trans>
			</p>
		</>
	)
}
