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
	const errors = answer.errors ?? {}
	return {
		errors,
		values,
		/** What was typed, shown again after a refusal; `stored` otherwise. */
		value: (name: string, stored: string) =>
			typeof values[name] === 'string' ? String(values[name]) : stored,
		done: typeof answer.done === 'string' ? answer.done : null,
		/**
		 * The answer, when it refused what the form sent with this `intent` (any form's when none is
		 * named), for useFormLeaveGuard; undefined otherwise.
		 */
		refusal: (intent?: string): object | undefined =>
			Object.keys(errors).length > 0 && (intent === undefined || values.intent === intent)
				? answer
				: undefined,
	}
}
