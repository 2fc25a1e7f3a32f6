import { slugProblem } from '#app/features/articles/editor.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/slug-check'

// Checked as the editor types: is this address free (apart from the article being edited)?
export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const params = new URL(request.url).searchParams
	const id = Number(params.get('id'))
	const problem = await slugProblem(
		storage,
		(params.get('slug') ?? '').trim(),
		Number.isSafeInteger(id) && id > 0 ? id : undefined,
	)
	return Response.json({ problem }, { headers: { 'Cache-Control': 'no-store' } })
}
