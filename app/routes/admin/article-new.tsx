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
	const { storage } = context.get(servicesContext)
	return newArticleAction(storage, request, context.get(editorContext))
}

export default function NewArticle({ actionData }: Route.ComponentProps) {
	return (
		<>
			<h1>New article</h1>
			<ArticleEditor article={null} actionData={actionData} initialHtml="" />
		</>
	)
}
