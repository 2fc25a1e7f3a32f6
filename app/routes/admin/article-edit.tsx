import { useState } from 'react'
import { data, Link, useRouteError } from 'react-router'
import { DatabaseUnavailable, isDatabaseOutage } from '#app/components/ui/database-unavailable.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { ArticleEditor } from '#app/features/articles/article-editor.tsx'
import { editArticleAction, toEditorArticle } from '#app/features/articles/editor-action.server.ts'
import { editorContext } from '#app/features/auth/session.server.ts'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { readPushResults } from '#app/features/push/push-results.server.ts'
import { PushBreakdown } from '#app/features/push/push-results.tsx'
import { imageUploadFieldStylesheet } from '#app/features/uploads/image-upload-field.tsx'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/article-edit'

function articleId(raw: string): number {
	const id = Number(raw)
	if (!Number.isSafeInteger(id) || id <= 0) throw data('There is no article here.', 404)
	return id
}

export const links: Route.LinksFunction = () => [
	{ rel: 'stylesheet', href: imageUploadFieldStylesheet },
]

export function meta({ loaderData }: Route.MetaArgs) {
	return [
		{ title: `${loaderData?.article.title ?? 'Article'} · Editor · Canopy` },
		{ name: 'robots', content: 'noindex' },
	]
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { storage, uploadMaxBytes } = context.get(servicesContext)
	const article = await storage.articles.findById(articleId(params.id))
	if (!article) throw data('There is no article here; it may have been deleted.', 404)
	const saved = new URL(request.url).searchParams.get('saved')
	const push = await readPushResults(storage, [article.id])
	return { article: toEditorArticle(article), html: article.bodyHtml, saved, push, uploadMaxBytes }
}

export function action({ request, params, context }: Route.ActionArgs) {
	const services = context.get(servicesContext)
	return editArticleAction(services, request, articleId(params.id), context.get(editorContext))
}

export default function EditArticle({ loaderData, actionData }: Route.ComponentProps) {
	const { article, html, saved, push } = loaderData
	const counts = push.byArticle[article.id]
	// The save that created the article, told once: stable, so the editor does not hear it again.
	const [justCreated] = useState(() =>
		saved
			? { saved: { version: article.version, updatedAt: article.updatedAt, intent: saved } }
			: undefined,
	)
	return (
		<>
			<p className="breadcrumb">
				{article.kind === 'page' ? (
					<Link to="/admin/pages">All pages</Link>
				) : (
					<Link to="/admin/articles">All articles</Link>
				)}
			</p>
			<h1>Edit “{article.title}”</h1>
			<p className="editor-state">
				{article.status === 'published' && article.publishedAt ? (
					<>
						Published <LocalTime iso={article.publishedAt} /> ·{' '}
						<a href={publicPath(article.kind, article.slug)}>View it on the site</a>
					</>
				) : article.publishAt ? (
					<>
						Scheduled for <LocalTime iso={article.publishAt} time />
					</>
				) : (
					'Draft: only editors can see it.'
				)}
			</p>
			{counts ? (
				<PushBreakdown
					article={{ ...article, published: article.status === 'published' }}
					counts={counts}
					subscribers={push.subscribers}
				/>
			) : null}
			<ArticleEditor
				article={article}
				actionData={actionData ?? justCreated}
				initialHtml={html}
				kind={article.kind}
				uploadMaxBytes={loaderData.uploadMaxBytes}
			/>
		</>
	)
}

export function ErrorBoundary() {
	if (isDatabaseOutage(useRouteError())) return <DatabaseUnavailable />
	return (
		<>
			<h1>Article not found</h1>
			<p>
				It may have been deleted. <Link to="/admin/articles">See all articles</Link>.
			</p>
		</>
	)
}
