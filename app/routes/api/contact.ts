// The contact form as JSON. The same rules as the page's form: the schema, the per-address rate
// limit, the honeypot (`website`) and the signed render time. A client first GETs a key and a
// token, lets at least `minimumWaitSeconds` pass, then POSTs the fields with them:
//   GET  /api/contact -> 200 { idempotencyKey, token, minimumWaitSeconds }
//   POST /api/contact { name, email, subject?, message, idempotencyKey, token }
//     -> 201 { id, receivedAt } stored (or taken for a robot's: answered alike, not stored)
//     -> 200 { id, receivedAt } the key was seen before; nothing new is stored
//     -> 400 { errors }, 413, 415, 429 { error } with Retry-After
import { submitContactMessage } from '#app/features/contact/contact.server.ts'
import { minimumFillMs, newFormIdentity } from '#app/features/contact/form-token.server.ts'
import { clientIpContext, servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/contact'

const noStore = { 'Cache-Control': 'no-store' }

export async function loader({ context }: Route.LoaderArgs) {
	const identity = await newFormIdentity(context.get(servicesContext).storage)
	return Response.json(
		{ ...identity, minimumWaitSeconds: minimumFillMs / 1000 },
		{ headers: noStore },
	)
}

function refuse(status: number, body: object, headers: Record<string, string> = {}) {
	return Response.json(body, { status, headers: { ...noStore, ...headers } })
}

export async function action({ request, context }: Route.ActionArgs) {
	if (request.method !== 'POST') {
		return refuse(405, { error: 'Send messages with POST.' }, { Allow: 'GET, POST' })
	}
	const type = request.headers.get('content-type') ?? ''
	if (!/^application\/json\s*(;|$)/i.test(type)) {
		return refuse(415, { error: 'Send the message as JSON (Content-Type: application/json).' })
	}
	let body: unknown
	try {
		body = await request.json()
	} catch {
		return refuse(400, { errors: { form: ['The request body is not valid JSON.'] } })
	}
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return refuse(400, { errors: { form: ['Send one JSON object with the message’s fields.'] } })
	}

	const result = await submitContactMessage(
		context.get(servicesContext),
		context.get(clientIpContext),
		body,
	)
	switch (result.outcome) {
		case 'invalid':
			return refuse(400, { errors: result.errors })
		case 'limited':
			return refuse(
				429,
				{ error: result.error },
				{ 'Retry-After': String(result.retryAfterSeconds) },
			)
		case 'accepted':
			return Response.json(
				{ id: result.id, receivedAt: result.receivedAt },
				{ status: result.created ? 201 : 200, headers: noStore },
			)
	}
}
