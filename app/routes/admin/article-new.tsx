import { msg } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
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
	return (
		<>
			<h1>{loaderData.kind === 'page' ? <Trans>New page</Trans> : <Trans>New article</Trans>}</h1>
			<ArticleEditor
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
