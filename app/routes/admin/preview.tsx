// A draft (or a published article's edits waiting for Update) as readers will see it: the public
// page's own view in the public chrome, at /admin/preview/:id. Outside the staff layout, so it
// carries the staff area's middleware itself; framed by the editor's preview page
// (preview-widths.tsx), the one address whose answer may be framed, by the site alone.
import { msg } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import { data, Link } from 'react-router'
import { ArticleView } from '#app/features/articles/article-view.tsx'
import { previewArticle } from '#app/features/articles/editor.server.ts'
import { termSlug } from '#app/features/articles/slug.ts'
import { requireEditorMiddleware } from '#app/features/auth/session.server.ts'
import { readerBodyHtml } from '#app/features/uploads/responsive-body.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { Route } from './+types/preview'

export const middleware: Route.MiddlewareFunction[] = [requireEditorMiddleware]

export function headers() {
	return { 'Cache-Control': 'no-store' }
}

export async function loader({ params, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const id = Number(params.id)
	const article =
		Number.isSafeInteger(id) && id > 0 ? await storage.articles.findById(id) : undefined
	if (!article) throw data(null, { status: 404 })
	const { bodyMarkdown: _, ...stored } = article
	// Edits waiting for Update are what the editor holds: the preview shows them.
	const pending = await storage.revisions.pending(id)
	const rendered = pending && (await previewArticle(pending.bodyMarkdown))
	const shown =
		pending && rendered?.ok
			? {
					...stored,
					title: pending.title,
					summary: pending.summary,
					coverImageUrl: pending.coverImageUrl,
					coverImageAlt: pending.coverImageAlt,
					tags: pending.tags.map((name) => ({ name, slug: termSlug('tag', name) })),
					authors: pending.authors.map((name) => ({ name, slug: termSlug('author', name) })),
					bodyHtml: rendered.html,
				}
			: stored
	return {
		id,
		status: article.status,
		pending: Boolean(pending && rendered?.ok),
		article: {
			...shown,
			bodyHtml: await readerBodyHtml(storage, shown.bodyHtml),
			// A draft shows the day it would be published: today.
			publishedAt: article.publishedAt ?? new Date().toISOString(),
		},
		onward: { newer: null, older: null },
		moreOn: null,
	}
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	const title = loaderData?.article.title
	return [
		{ title: title ? i18n._(msg`Preview: ${title}`) : i18n._(msg`Preview: not found`) },
		{ name: 'robots', content: 'noindex' },
	]
}

export default function Preview({ loaderData }: Route.ComponentProps) {
	const { id, status, pending, ...view } = loaderData
	return (
		<>
			<p className="preview-note" role="note">
				{pending ? (
					<Trans>Preview of changes readers do not see yet.</Trans>
				) : status === 'published' ? (
					<Trans>Preview of the last saved version.</Trans>
				) : (
					<Trans>Preview of a draft: readers cannot see this page.</Trans>
				)}{' '}
				<Link to={`/admin/articles/${id}`} target="_top">
					<Trans>Back to the editor</Trans>
				</Link>
			</p>
			<ArticleView {...view} />
		</>
	)
}
