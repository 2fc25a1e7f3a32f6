import { ArticleEditor } from '#app/features/articles/article-editor.tsx'
import { newArticleAction } from '#app/features/articles/editor-action.server.ts'
import { editorContext } from '#app/features/auth/session.server.ts'
import { imageUploadFieldStylesheet } from '#app/features/uploads/image-upload-field.tsx'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/article-new'

export function meta() {
	return [{ title: 'New article · Canopy' }, { name: 'robots', content: 'noindex' }]
}

export const links: Route.LinksFunction = () => [
	{ rel: 'stylesheet', href: imageUploadFieldStylesheet },
]

export function action({ request, context }: Route.ActionArgs) {
	return newArticleAction(context.get(servicesContext), request, context.get(editorContext))
}

export function loader({ context }: Route.LoaderArgs) {
	return { uploadMaxBytes: context.get(servicesContext).uploadMaxBytes }
}

export default function NewArticle({ loaderData, actionData }: Route.ComponentProps) {
	return (
		<>
			<h1>New article</h1>
			<ArticleEditor
				article={null}
				actionData={actionData}
				initialHtml=""
				uploadMaxBytes={loaderData.uploadMaxBytes}
			/>
		</>
	)
}
