import type { Route } from './+types/article-preview'
import { previewArticle } from '#app/features/articles/editor.server.ts'

// The editor's live preview: Markdown in, the public page's sanitised HTML out, rendered by the
// same server pipeline (so no Markdown tooling is shipped to any browser).
export async function action({ request }: Route.ActionArgs) {
	if (request.method !== 'POST') return Response.json({ error: 'Use POST.' }, { status: 405 })
	const form = await request.formData().catch(() => null)
	const body = form?.get('body')
	if (typeof body !== 'string')
		return Response.json({ errors: { body: ['Send the Markdown as `body`.'] } }, { status: 400 })
	return Response.json(
		{ html: await previewArticle(body) },
		{ headers: { 'Cache-Control': 'no-store' } },
	)
}

export function loader() {
	return Response.json({ error: 'Use POST.' }, { status: 405, headers: { Allow: 'POST' } })
}
