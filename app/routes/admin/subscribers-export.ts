// Every subscriber as a CSV download (admins only, under the admin-only layout): addresses are
// personal data, so the file is never cached on the way.
import { subscribersCsv } from '#app/features/newsletter/subscribers-csv.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/subscribers-export'

export async function loader({ context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const [subscribers, tags] = await Promise.all([storage.newsletter.all(), storage.tags.list()])
	const tagNames = new Map(tags.map((tag) => [tag.id, tag.name]))
	return new Response(subscribersCsv(subscribers, tagNames), {
		headers: {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': 'attachment; filename="subscribers.csv"',
			'Cache-Control': 'no-store',
		},
	})
}
