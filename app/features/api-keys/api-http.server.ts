// The admin API's HTTP conventions: JSON answers with an `error` a person can act on, 405 with
// Allow, 415 for a body that is not JSON, and never a 500 for anything a client sent.
import type { RouterContextProvider } from 'react-router'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Storage } from '#storage/port/storage.ts'
import { type ApiCaller, authenticateApiRequest } from './api-keys.server.ts'

export function apiError(
	status: number,
	error: string,
	extra: Record<string, unknown> = {},
	headers: HeadersInit = {},
): Response {
	return Response.json({ error, ...extra }, { status, headers })
}

export function methodNotAllowed(request: Request, allow: string[]): Response {
	return apiError(
		405,
		`${request.method} is not supported here. Use ${allow.join(', ')}.`,
		{},
		{ Allow: allow.join(', ') },
	)
}

/** The request's JSON object, or the 415 or 400 answer to give instead. */
export async function readJsonObject(
	request: Request,
): Promise<Record<string, unknown> | Response> {
	const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? ''
	if (type !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(type)) {
		return apiError(415, 'Send the body as JSON, with "Content-Type: application/json".')
	}
	let value: unknown
	try {
		value = JSON.parse(await request.text())
	} catch {
		return apiError(400, 'The body is not valid JSON. Check quotes, commas and brackets.')
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return apiError(400, 'The body must be a JSON object, e.g. {"title": "…"}.')
	}
	return value as Record<string, unknown>
}

/** Database ids fit a 32-bit integer; anything else cannot name an article. */
const maxId = 2_147_483_647

export function parseId(value: string | undefined): number | null {
	if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null
	const id = Number(value)
	return id <= maxId ? id : null
}

/** The version a change starts from, or the 400 answer when it is missing or not a version. */
export function parseVersion(value: unknown): number | Response {
	const version =
		typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN
	if (Number.isInteger(version) && version > 0 && version <= maxId) return version
	return apiError(400, 'The request is missing the version it was based on.', {
		errors: {
			version: [
				'Send the article’s version from your last read (a whole number); a change over a newer version is refused.',
			],
		},
	})
}

export interface ApiRequest {
	request: Request
	caller: ApiCaller
	storage: Storage
	siteUrl: string
	/** The largest image upload taken (UPLOAD_MAX_MB). */
	uploadMaxBytes: number
	/** The most pixels an uploaded image may have (UPLOAD_MAX_MEGAPIXELS). */
	uploadMaxPixels: number
	/** Makes a new image's versions now (after an upload). */
	wakeImageVersions: () => void
}

/**
 * Runs `handle` for a caller with a key or a session; everyone else gets 401. Every admin API
 * route answers through this, so none can forget the check.
 */
export async function withApiCaller(
	context: Readonly<RouterContextProvider>,
	request: Request,
	handle: (api: ApiRequest) => Promise<Response> | Response,
): Promise<Response> {
	const caller = await authenticateApiRequest(context, request)
	if (caller instanceof Response) return caller
	const { storage, siteUrl, uploadMaxBytes, uploadMaxPixels, wakeImageVersions } =
		context.get(servicesContext)
	const response = await handle({
		request,
		caller,
		storage,
		siteUrl,
		uploadMaxBytes,
		uploadMaxPixels,
		wakeImageVersions,
	})
	// What the API answers depends on who asks: never kept by a shared cache.
	response.headers.set('Cache-Control', 'no-store')
	return response
}
