// The inbox's live updates for open editor pages (app/features/contact/use-inbox-events.ts). Under
// the editor layout, so its middleware turns anyone not signed in away before this runs.
import type { Route } from './+types/messages-stream'
import { inboxStreamResponse } from '#app/features/contact/inbox-stream.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'

export function loader({ request, context }: Route.LoaderArgs) {
	return inboxStreamResponse(context.get(servicesContext).storage, request)
}
