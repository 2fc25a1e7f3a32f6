// What stopped a form from being saved, at the top of the form: each problem in plain words,
// named as its field is labelled and linked to it, and focus moved here so a screen reader reads
// it at once and a keyboard user goes on from it (the pattern of the GOV.UK design system).
import { useLingui } from '@lingui/react/macro'
import { type MouseEvent, useEffect, useRef } from 'react'
import type { FieldErrors } from '#app/lib/field-errors.ts'

interface ErrorSummaryProps {
	/** The form's errors by field name (`tags.2` counts as `tags`); `form` and `version` are the form's own. */
	errors: FieldErrors
	/** Each field's label, by name, as the form shows it, in the form's order (the summary's). */
	labels: Record<string, string>
	/** The first line: what did not happen. */
	title: string
	/**
	 * What brings a new summary to read, and focus to it: by default the errors object, new with
	 * each refused save. A form that takes a line away as its field is mended passes the answer
	 * instead, so the summary does not take focus from the field being typed in.
	 */
	answer?: unknown
}

const ownErrors = new Set(['form', 'version'])

/** Into the field itself, not only to it: without JavaScript the link scrolls there. */
function focusField(event: MouseEvent<HTMLAnchorElement>, id: string) {
	const field = document.getElementById(id)
	if (!field) return
	event.preventDefault()
	field.focus({ preventScroll: true })
	field.scrollIntoView({ block: 'center' })
}

export function ErrorSummary({ errors, labels, title, answer = errors }: ErrorSummaryProps) {
	const { t, i18n } = useLingui()
	const summary = useRef<HTMLDivElement>(null)
	const problems = new Map<string, string>()
	for (const [key, messages] of Object.entries(errors)) {
		const field = key.split('.')[0] ?? key
		const text = messages[0]
		// A schema's message (English) in the interface's language where its catalogue has it.
		if (!problems.has(field) && text)
			problems.set(field, Object.hasOwn(i18n.messages, text) ? i18n._(text) : text)
	}
	// A new answer, a new summary to read.
	const shown = Object.keys(errors).length > 0
	// biome-ignore lint/correctness/useExhaustiveDependencies: once per answer, not as lines go
	useEffect(() => {
		if (shown) summary.current?.focus()
	}, [answer])
	if (problems.size === 0) return null
	// In the form's order, whatever order the server found them in: the form's own first, a
	// field without a label last.
	const order = Object.keys(labels)
	const place = (field: string) =>
		ownErrors.has(field) ? -1 : order.includes(field) ? order.indexOf(field) : order.length
	const listed = [...problems].sort(([a], [b]) => place(a) - place(b))
	return (
		<div
			className="error-summary"
			role="alert"
			tabIndex={-1}
			ref={summary}
			aria-labelledby="error-summary-title"
		>
			<h2 id="error-summary-title">{title}</h2>
			<ul>
				{listed.map(([field, message]) => {
					const label = labels[field]
					return ownErrors.has(field) || !label ? (
						<li key={field}>{message}</li>
					) : (
						<li key={field}>
							<a href={`#${field}`} onClick={(event) => focusField(event, field)}>
								{t({
									message: `${label}: ${message}`,
									comment: 'A field’s label, then what is wrong with its value',
								})}
							</a>
						</li>
					)
				})}
			</ul>
		</div>
	)
}
