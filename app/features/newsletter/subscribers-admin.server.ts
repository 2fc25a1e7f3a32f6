// The subscribers page's form action (admins only): deleting a subscriber for good, and importing
// a list the admin vouches for (docs/decisions/032-newsletter.md).
import { data } from 'react-router'
import type { AppServices } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { sendConfirmations } from './subscribe.server.ts'
import { deleteSubscriberSchema, importSubscribersSchema } from './subscribers.schema.ts'
import { maxImportBytes, parseSubscribersCsv } from './subscribers-csv.server.ts'

const problem = (errors: FieldErrors, status: number, values: Record<string, string> = {}) =>
	data({ errors, values }, status)

/** What the page's forms post: an import, or the delete button of one subscriber's row. */
export async function subscribersAction(services: AppServices, posted: FormData) {
	const intent = posted.get('intent')
	if (intent === 'import') return importList(services, posted)
	if (intent !== 'delete')
		return problem({ form: ['Choose to delete a subscriber or to import a list.'] }, 400)
	const parsed = deleteSubscriberSchema.safeParse({ id: posted.get('id') })
	if (!parsed.success)
		return problem({ form: ['There is no such subscriber. Reload the page and try again.'] }, 400)
	if (!(await services.storage.newsletter.remove(parsed.data.id, new Date())))
		return problem({ form: ['This subscriber was deleted already.'] }, 404)
	return {
		done: 'Deleted: every trace of the address is gone; its mails stay counted anonymously.',
	}
}

const textFile = /\.(csv|txt)$/i
const textTypes = new Set([
	'',
	'text/csv',
	'text/plain',
	'application/csv',
	'application/vnd.ms-excel',
])

/** A list of addresses: all of them added (those already known left as they are), or none. */
async function importList(services: AppServices, posted: FormData) {
	const values = {
		consent: String(posted.get('consent') ?? ''),
		confirmed: String(posted.get('confirmed') ?? ''),
	}
	const parsed = importSubscribersSchema.safeParse(values)
	const errors: FieldErrors = parsed.success ? {} : fieldErrors(parsed.error)
	const file = posted.get('file')
	if (!(file instanceof File) || file.size === 0)
		errors.file = ['Choose a CSV file of addresses to import.']
	else if (!textFile.test(file.name) && !textTypes.has(file.type))
		errors.file = ['Choose a CSV file (.csv or .txt). Save a spreadsheet as CSV first.']
	else if (file.size > maxImportBytes)
		errors.file = ['The file is larger than 5 MB; split it and import each part.']
	if (!parsed.success || errors.file || !(file instanceof File)) return problem(errors, 400, values)
	const list = parseSubscribersCsv(await file.text())
	if (!list.ok) return problem({ file: list.problems }, 400, values)
	const confirmed = parsed.data.confirmed === 'on'
	const now = new Date()
	const result = await services.storage.newsletter.importMany(
		list.emails.map((email) => ({ email, confirmed })),
		now,
		now,
	)
	await sendConfirmations(services, result.toConfirm)
	const queued = result.toConfirm.length
	const count = (n: number) => n.toLocaleString('en')
	return {
		imported: true,
		done:
			`${count(result.added)} added (${count(result.existing)} already subscribed); ` +
			`${count(queued)} confirmation ${queued === 1 ? 'mail' : 'mails'} queued.` +
			(queued > 0 && !services.smtpUrl
				? ' Mail is not set up yet (SMTP_URL): they go out once it is.'
				: ''),
	}
}
