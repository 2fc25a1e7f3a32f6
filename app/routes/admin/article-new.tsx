import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { ArticleEditor } from '#app/features/articles/article-editor.tsx'
import { newArticleAction } from '#app/features/articles/editor-action.server.ts'
import { editorContext } from '#app/features/auth/session.server.ts'
import { imageUploadFieldStylesheet } from '#app/features/uploads/image-upload-field.tsx'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { ArticleKind } from '#storage/port/articles.ts'
import type { Route } from './+types/article-new'

// A new article, and (at /admin/pages/new) a new page: the same editor.
const kindOf = (request: Request): ArticleKind =>
	new URL(request.url).pathname.startsWith('/admin/pages') ? 'page' : 'article'

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [
		{
			title:
				loaderData?.kind === 'page'
					? i18n._(msg`New page · Canopy`)
					: i18n._(msg`New article · Canopy`),
		},
		{ name: 'robots', content: 'noindex' },
	]
}

export const links: Route.LinksFunction = () => [
	{ rel: 'stylesheet', href: imageUploadFieldStylesheet },
]

export function action({ request, context }: Route.ActionArgs) {
	return newArticleAction(
		context.get(servicesContext),
		request,
		context,
		context.get(editorContext),
		kindOf(request),
	)
}

export async function loader({ context, request }: Route.LoaderArgs) {
	const { storage, uploadMaxBytes } = context.get(servicesContext)
	const editor = context.get(editorContext)
	const profile = await storage.authors.forUser(editor.id, editor.name)
	return { uploadMaxBytes, kind: kindOf(request), defaultAuthors: [profile.name] }
}

export default function NewArticle({ loaderData, actionData }: Route.ComponentProps) {
	const { i18n } = useLingui()
	// Once the first autosave has made it a draft (at its own address), the page is that draft's,
	// named as the draft's own page names it.
	const [title, setTitle] = useState<string | null>(null)
	useEffect(() => {
		if (title !== null) document.title = i18n._(msg`${title} · Editor · Canopy`)
	}, [title, i18n])
	return (
		<>
			<h1>
				{title !== null ? (
					<Trans>
						Edit “<bdi>{title}</bdi>”
					</Trans>
				) : loaderData.kind === 'page' ? (
					<Trans>New page</Trans>
				) : (
					<Trans>New article</Trans>
				)}
			</h1>
			<ArticleEditor
				onDraftMade={setTitle}
				article={null}
				kind={loaderData.kind}
				actionData={actionData}
				initialHtml=""
				uploadMaxBytes={loaderData.uploadMaxBytes}
				defaultAuthors={loaderData.defaultAuthors}
			/>
		</>
	)
}
