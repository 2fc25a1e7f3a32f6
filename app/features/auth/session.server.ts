// Who is signed in, for the editor area's loaders and actions. Sign-in and sign-out go through
// better-auth's HTTP handler (not its server-side API) so its rate limits and checks apply.
import {
	createContext,
	data,
	type MiddlewareFunction,
	type RouterContextProvider,
	redirect,
} from 'react-router'
import { clientIpContext, servicesContext } from '#app/lib/context.server.ts'
import { accountLocaleContext } from '#app/lib/i18n.server.ts'
import { isInterfaceLocale } from '#app/lib/i18n.ts'
import { authBasePath, clientIpHeader } from './auth.server.ts'
import { type Editor, editorOf, signInAddress } from './editor-session.server.ts'

export async function getEditor(
	context: Readonly<RouterContextProvider>,
	request: Request,
): Promise<Editor | null> {
	return editorOf(context.get(servicesContext).auth, request.headers)
}

/** The signed-in editor; anyone else is sent to sign in, and comes back here afterwards. */
export async function requireEditor(
	context: Readonly<RouterContextProvider>,
	request: Request,
): Promise<Editor> {
	const editor = await getEditor(context, request)
	if (editor) return editor
	const { pathname, search } = new URL(request.url)
	throw redirect(signInAddress(pathname + search))
}

/** The signed-in editor, for loaders and actions under the guarded layout. */
export const editorContext = createContext<Editor>()

/**
 * The editor area's guard, as route middleware: it runs before any loader or action below it,
 * so nothing under /admin runs at all for someone not signed in. (A loader guard would not be
 * enough: React Router runs a layout's loader and its children's in parallel.)
 */
export const requireEditorMiddleware: MiddlewareFunction<Response> = async (
	{ request, context },
	next,
) => {
	setEditor(context, await requireEditor(context, request))
	return next()
}

/**
 * Who is signed in, for what runs after: the editor, and the language the account chose, which
 * the staff area speaks (accountLocaleContext; none chosen: the reader's). Again after the account
 * changes it, so the answer to that very request is in the new language.
 */
export function setEditor(context: Readonly<RouterContextProvider>, editor: Editor): void {
	context.set(editorContext, editor)
	const chosen = editor.interfaceLanguage
	context.set(accountLocaleContext, isInterfaceLocale(chosen) ? chosen : null)
}

/**
 * The admins-only part of the editor area (settings, team, API keys), below the editor guard: an
 * editor gets a 403 page, before any loader or action there runs.
 */
export const requireAdminMiddleware: MiddlewareFunction<Response> = async ({ context }, next) => {
	if (context.get(editorContext).role !== 'admin') {
		throw data('Only admins can open this part of the editor area.', { status: 403 })
	}
	return next()
}

/** Only paths inside the editor area are followed after sign-in, never another site. */
export function safeNext(next: string | null): string {
	return next && /^\/admin(?:[/?]|$)/.test(next) && !/\/\/|\\/.test(next) ? next : '/admin'
}

/** Calls better-auth's own endpoint as the visitor's browser would, from their address. */
export function callAuth(
	context: Readonly<RouterContextProvider>,
	request: Request,
	path: string,
	body: Record<string, unknown>,
): Promise<Response> {
	const { auth, siteUrl } = context.get(servicesContext)
	const headers = new Headers({
		'Content-Type': 'application/json',
		// The form was posted from this site (the app's Origin check passed), so say so.
		Origin: siteUrl,
		[clientIpHeader]: context.get(clientIpContext),
	})
	const cookie = request.headers.get('cookie')
	if (cookie) headers.set('Cookie', cookie)
	return auth.handler(
		new Request(new URL(`${authBasePath}${path}`, siteUrl), {
			method: 'POST',
			headers,
			body: JSON.stringify(body),
		}),
	)
}

/** Response headers that pass better-auth's cookies on to the browser. */
export function passCookies(response: Response): Headers {
	const headers = new Headers()
	for (const cookie of response.headers.getSetCookie()) headers.append('Set-Cookie', cookie)
	return headers
}

/**
 * Signs a just-made account in (setup link, invite) through the same door as every later
 * sign-in, and sends the browser on to the editor area; to the sign-in page should that fail.
 */
export async function enterNewAccount(
	context: Readonly<RouterContextProvider>,
	request: Request,
	account: { email: string; password: string },
): Promise<never> {
	const signedIn = await callAuth(context, request, '/sign-in/email', account)
	throw redirect(signedIn.ok ? '/admin' : '/admin/sign-in', { headers: passCookies(signedIn) })
}
