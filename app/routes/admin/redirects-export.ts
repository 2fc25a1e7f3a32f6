// Every redirect as a CSV download (admins only, under the admin-only layout).
import { redirectsCsv } from '#app/features/redirects/redirects-csv.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/redirects-export'

export async function loader({ context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	return new Response(redirectsCsv(await storage.redirects.list()), {
		headers: {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': 'attachment; filename="redirects.csv"',
			'Cache-Control': 'no-store',
		},
	})
}
