// Who a request's session belongs to, without React Router: the editor area's guard
// (session.server.ts) and the server's live streams (server/live/streams.ts) ask the same way.
import type { Auth } from './auth.server.ts'
import type { Role } from './user.schema.ts'

export interface Editor {
	id: string
	name: string
	email: string
	role: Role
	/** The staff area's language the account chose: an interface language, or '' (the browser's). */
	interfaceLanguage: string
}

/** Who these request headers' session cookie belongs to: an active editor, or null. */
export async function editorOf(auth: Auth, headers: Headers): Promise<Editor | null> {
	const session = await auth.api.getSession({ headers })
	if (!session) return null
	const { id, name, email, role, deactivatedAt, interfaceLanguage } = session.user as {
		id: string
		name: string
		email: string
		role: Role
		deactivatedAt?: Date | string | null
		interfaceLanguage?: string | null
	}
	// Deactivating ends the sessions too; this holds even for one made in the same instant.
	if (deactivatedAt) return null
	return { id, name, email, role, interfaceLanguage: interfaceLanguage ?? '' }
}

/** Where someone not signed in is sent, to come back to `pathAndQuery` afterwards. */
export function signInAddress(pathAndQuery: string): string {
	return `/admin/sign-in?next=${encodeURIComponent(pathAndQuery)}`
}
