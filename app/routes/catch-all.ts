import { unknownAddress } from '#app/lib/unknown-address.ts'
import type { Route } from './+types/catch-all'

export function loader({ request }: Route.LoaderArgs) {
	return unknownAddress(request)
}
