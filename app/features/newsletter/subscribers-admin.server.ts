// The subscribers page's form action (admins only): deleting a subscriber for good, and importing
// a list the admin vouches for (docs/decisions/032-newsletter.md).
import type { I18n } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import { data } from 'react-router'
import type { AppServices } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { sendConfirmations } from './subscribe.server.ts'
import { deleteSubscriberSchema, importSubscribersSchema } from './subscribers.schema.ts'
import { maxImportBytes, parseSubscribersCsv } from './subscribers-csv.server.ts'

const problem = (errors: FieldErrors, status: number, values: Record<string, string> = {}) =>
	data({ errors, values }, status)

/**
 * What the page's forms post: an import, or the delete button of one subscriber's row. `i18n`:
 * the request's interface language, for what the answer says.
 */
export async function subscribersAction(services: AppServices, posted: FormData, i18n: I18n) {
	const intent = posted.get('intent')
	if (intent === 'import') return importList(services, posted, i18n)
	if (intent !== 'delete')
		return problem({ form: [i18n._(msg`Choose to delete a subscriber or to import a list.`)] }, 400)
	const parsed = deleteSubscriberSchema.safeParse({ id: posted.get('id') })
	if (!parsed.success)
		return problem(
			{ form: [i18n._(msg`There is no such subscriber. Reload the page and try again.`)] },
			400,
		)
	if (!(await services.storage.newsletter.remove(parsed.data.id, new Date())))
		return problem({ form: [i18n._(msg`This subscriber was deleted already.`)] }, 404)
	return {
		done: i18n._(
			msg`Deleted: every trace of the address is gone; its mails stay counted anonymously.`,
		),
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
async function importList(services: AppServices, posted: FormData, i18n: I18n) {
	const values = {
		consent: String(posted.get('consent') ?? ''),
		confirmed: String(posted.get('confirmed') ?? ''),
	}
	const parsed = importSubscribersSchema.safeParse(values)
	const errors: FieldErrors = parsed.success ? {} : fieldErrors(parsed.error)
	const file = posted.get('file')
	if (!(file instanceof File) || file.size === 0)
		errors.file = [i18n._(msg`Choose a CSV file of addresses to import.`)]
	else if (!textFile.test(file.name) && !textTypes.has(file.type))
		errors.file = [i18n._(msg`Choose a CSV file (.csv or .txt). Save a spreadsheet as CSV first.`)]
	else if (file.size > maxImportBytes)
		errors.file = [i18n._(msg`The file is larger than 5 MB; split it and import each part.`)]
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
	const added = result.added
	const existing = result.existing
	// Each count is written in the reader's language's digits (the plural's #).
	const summary = i18n._(
		msg`${plural(added, { one: '# added', other: '# added' })} (${plural(existing, {
			one: '# already subscribed',
			other: '# already subscribed',
		})}); ${plural(queued, {
			one: '# confirmation mail',
			other: '# confirmation mails',
		})} queued.`,
	)
	return {
		imported: true,
		done:
			queued > 0 && !services.smtpUrl
				? `${summary} ${i18n._(msg`Mail is not set up yet (SMTP_URL): they go out once it is.`)}`
				: summary,
	}
}
