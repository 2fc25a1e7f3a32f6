// What a staff page's form action answered, read the same way on every page: the field errors
// and the values to show again after a refusal, or the sentence saying what was done.
import type { FieldErrors } from './field-errors.ts'

export function actionAnswer(actionData: unknown) {
	const answer = (actionData ?? {}) as {
		errors?: FieldErrors
		values?: Record<string, unknown>
		done?: unknown
	}
	const values = answer.values ?? {}
	return {
		errors: answer.errors ?? {},
		values,
		/** What was typed, shown again after a refusal; `stored` otherwise. */
		value: (name: string, stored: string) =>
			typeof values[name] === 'string' ? String(values[name]) : stored,
		done: typeof answer.done === 'string' ? answer.done : null,
	}
}
