// Page actions read what a browser's form posts. Anything else (JSON, text, a broken multipart
// body) is answered 415 or 400 with a message saying so, never a 500 from formData() throwing.
import { data } from 'react-router'

const formTypes = new Set(['application/x-www-form-urlencoded', 'multipart/form-data'])

export const notAFormMessage =
	'This address takes a form (application/x-www-form-urlencoded or multipart/form-data), as the page sends it.'
export const brokenFormMessage = 'The form arrived incomplete or damaged. Please send it again.'

/** The form a request carries; throws a 415 or 400 answer when it carries none. */
export async function readForm(request: Request): Promise<FormData> {
	const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase()
	if (!type || !formTypes.has(type)) throw data({ error: notAFormMessage }, { status: 415 })
	try {
		return await request.formData()
	} catch {
		throw data({ error: brokenFormMessage }, { status: 400 })
	}
}
