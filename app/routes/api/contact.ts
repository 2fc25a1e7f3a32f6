// The contact form as JSON. The same rules as the page's form: the schema, the per-address rate
// limit, the honeypot (`website`) and the signed render time. A client first GETs a key and a
// token, lets at least `minimumWaitSeconds` pass, then POSTs the fields with them:
//   GET  /api/contact -> 200 { idempotencyKey, token, minimumWaitSeconds }
//   POST /api/contact { name, email, subject?, message, idempotencyKey, token }
//     -> 201 { id, receivedAt } stored (or taken for a robot's: answered alike, not stored)
//     -> 200 { id, receivedAt } the key was seen before; nothing new is stored
//     -> 400 { errors }, 413, 415, 429 { error } with Retry-After
//   either: 503 { error } while editors have turned the contact form off (remote configuration),
//   or with Retry-After while the database cannot be reached
import { contactFormClosed, receiveContactMessage } from '#app/features/contact/contact.server.ts'
import { newFormIdentity } from '#app/features/contact/form-token.server.ts'
import { clientIpContext, servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/contact'

const noStore = { 'Cache-Control': 'no-store' }

/** The contact form turned off by an editor (remote configuration): 503, the address to write to. */
function closedAnswer(contactEmail: string): Response {
	return refuse(503, {
		error: `The contact form is closed just now: nothing was stored. Write to ${contactEmail} instead.`,
	})
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const services = context.get(servicesContext)
	const closed = await contactFormClosed(services, request)
	if (closed) return closedAnswer(closed.contactEmail)
	const identity = await newFormIdentity(services.storage)
	return Response.json(
		{ ...identity, minimumWaitSeconds: services.contactMinimumFillMs / 1000 },
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
	const services = context.get(servicesContext)
	const closed = await contactFormClosed(services, request)
	if (closed) return closedAnswer(closed.contactEmail)
	let body: unknown
	try {
		body = await request.json()
	} catch {
		return refuse(400, { errors: { form: ['The request body is not valid JSON.'] } })
	}
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return refuse(400, { errors: { form: ['Send one JSON object with the message’s fields.'] } })
	}

	const result = await receiveContactMessage(services, request, context.get(clientIpContext), body)
	switch (result.outcome) {
		case 'closed':
			return closedAnswer(result.contactEmail)
		case 'unavailable':
			return refuse(
				503,
				{
					error: `The message could not be stored just now: the site cannot reach its database. Send it again in ${result.retryAfterSeconds} seconds with the same idempotencyKey; it is stored once, even if this try did arrive.`,
				},
				{ 'Retry-After': String(result.retryAfterSeconds) },
			)
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
