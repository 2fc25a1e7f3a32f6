import type { z } from 'zod'

/** Messages per form field; `form` holds those that belong to no one field. */
export type FieldErrors = Record<string, string[]>

/** Zod's issues as field-level messages, the shape every form, action and API answer uses. */
export function fieldErrors(error: Pick<z.core.$ZodError, 'issues'>): FieldErrors {
	const errors: FieldErrors = {}
	for (const issue of error.issues) {
		const field = issue.path.join('.') || 'form'
		errors[field] = [...(errors[field] ?? []), issue.message]
	}
	return errors
}
