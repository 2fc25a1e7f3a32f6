// A newsletter mail as readers get it (?article=<id>, or ?digest): the HTML, or ?format=text the
// plain-text part. Served with a CSP that allows mail's inline styles and no script (server/app.ts).
import { previewMail } from '#app/features/newsletter/newsletter-admin.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/newsletter-preview'

export async function loader({ request, context }: Route.LoaderArgs) {
	const params = new URL(request.url).searchParams
	const id = Number(params.get('article'))
	const what = params.has('digest')
		? ({ kind: 'digest' } as const)
		: ({ kind: 'article', articleId: Number.isSafeInteger(id) && id > 0 ? id : undefined } as const)
	const mail = await previewMail(context.get(servicesContext), what)
	if (!mail)
		return new Response('Nothing to preview yet: publish an article first.', {
			status: 404,
			headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
		})
	const text = params.get('format') === 'text'
	return new Response(text ? mail.text : mail.html, {
		headers: {
			'Content-Type': text ? 'text/plain; charset=utf-8' : 'text/html; charset=utf-8',
			'Cache-Control': 'no-store',
		},
	})
}
