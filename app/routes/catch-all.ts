import { movedAddress } from '#app/features/redirects/redirects.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { unknownAddress } from '#app/lib/unknown-address.ts'
import type { Route } from './+types/catch-all'

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	return (await movedAddress(storage, request)) ?? unknownAddress(request)
}
