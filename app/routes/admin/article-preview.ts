import { previewArticle } from '#app/features/articles/editor.server.ts'
import type { Route } from './+types/article-preview'

// The editor's live preview: Markdown in, the public page's sanitised HTML out, rendered by the
// same server pipeline (so no Markdown tooling is shipped to any browser).
export async function action({ request }: Route.ActionArgs) {
	if (request.method !== 'POST') return Response.json({ error: 'Use POST.' }, { status: 405 })
	const form = await request.formData().catch(() => null)
	const body = form?.get('body')
	if (typeof body !== 'string')
		return Response.json({ errors: { body: ['Send the Markdown as `body`.'] } }, { status: 400 })
	const preview = await previewArticle(body)
	const headers = { 'Cache-Control': 'no-store' }
	if (!preview.ok)
		return Response.json({ errors: { body: [preview.problem] } }, { status: 422, headers })
	return Response.json({ html: preview.html }, { headers })
}

export function loader() {
	return Response.json({ error: 'Use POST.' }, { status: 405, headers: { Allow: 'POST' } })
}
