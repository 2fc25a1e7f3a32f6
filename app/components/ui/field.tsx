import type { ComponentPropsWithRef } from 'react'

interface FieldProps extends Omit<ComponentPropsWithRef<'input'>, 'id' | 'name'> {
	name: string
	label: string
	/** Shown under the label, read out with the input. */
	hint?: string
	/** What is wrong with the value, read out with the input and marking it invalid. */
	error?: string | string[]
}

/** A labelled input whose hint and error are tied to it for screen readers. */
export function Field({ name, label, hint, error, ...input }: FieldProps) {
	const message = Array.isArray(error) ? error.join(' ') : error
	const hintId = hint ? `${name}-hint` : undefined
	const errorId = message ? `${name}-error` : undefined
	return (
		<>
			<label htmlFor={name}>{label}</label>
			{hint ? (
				<p id={hintId} className="hint">
					{hint}
				</p>
			) : null}
			<input
				id={name}
				name={name}
				aria-invalid={message ? true : undefined}
				aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
				{...input}
			/>
			{message ? (
				<p id={errorId} className="field-error">
					{message}
				</p>
			) : null}
		</>
	)
}

interface TextAreaFieldProps extends Omit<ComponentPropsWithRef<'textarea'>, 'id' | 'name'> {
	name: string
	label: string
	hint?: string
	error?: string | string[]
}

/** Field's multi-line twin: the same label, hint and error wiring. */
export function TextAreaField({ name, label, hint, error, ...textarea }: TextAreaFieldProps) {
	const message = Array.isArray(error) ? error.join(' ') : error
	const hintId = hint ? `${name}-hint` : undefined
	const errorId = message ? `${name}-error` : undefined
	return (
		<>
			<label htmlFor={name}>{label}</label>
			{hint ? (
				<p id={hintId} className="hint">
					{hint}
				</p>
			) : null}
			<textarea
				id={name}
				name={name}
				aria-invalid={message ? true : undefined}
				aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
				{...textarea}
			/>
			{message ? (
				<p id={errorId} className="field-error">
					{message}
				</p>
			) : null}
		</>
	)
}
