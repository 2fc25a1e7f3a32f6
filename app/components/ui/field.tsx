import type { I18n } from '@lingui/core'
import { useLingui } from '@lingui/react/macro'
import type { ComponentPropsWithRef, ReactElement, ReactNode } from 'react'

/**
 * An error from a schema (English, written where macros cannot run) in the interface's language,
 * where its catalogue has a message with that text as its id; otherwise the text as it is. Only
 * looked up when there: Lingui warns in production of each message it has to fall back on, and
 * in development reads the text as ICU (dropping anything in braces).
 */
export function schemaMessage(i18n: I18n, text: string): string {
	return Object.hasOwn(i18n.messages, text) ? i18n._(text) : text
}

interface FrameProps {
	name: string
	/** The control's id, when the name is not unique on the page (a form per list item). */
	id?: string
	label: string
	/** Shown under the label, read out with the control (a title or an address in it isolated). */
	hint?: ReactNode
	/** What is wrong with the value, read out with the control and marking it invalid. */
	error?: string | string[]
	/** Shown between the hint and the control: a toolbar that works on it. */
	tools?: ReactNode
}

/**
 * The label, hint and error around one control, and the attributes that tie them to it for
 * screen readers; `control` gets those attributes and renders the input or textarea.
 */
function LabelledControl({
	name,
	id = name,
	label,
	hint,
	error,
	tools,
	control,
}: FrameProps & {
	control: (wiring: {
		id: string
		name: string
		'aria-invalid': true | undefined
		'aria-describedby': string | undefined
	}) => ReactElement
}) {
	const { i18n } = useLingui()
	const message = (Array.isArray(error) ? error : [error ?? ''])
		.map((text) => schemaMessage(i18n, text))
		.join(' ')
	const hintId = hint ? `${id}-hint` : undefined
	const errorId = message ? `${id}-error` : undefined
	return (
		<>
			<label htmlFor={id}>{label}</label>
			{hint ? (
				<p id={hintId} className="hint">
					{hint}
				</p>
			) : null}
			{tools}
			{control({
				id,
				name,
				'aria-invalid': message ? true : undefined,
				'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
			})}
			{message ? (
				<p id={errorId} className="field-error">
					{message}
				</p>
			) : null}
		</>
	)
}

type FieldProps = FrameProps & Omit<ComponentPropsWithRef<'input'>, 'id' | 'name'>

/** A labelled input whose hint and error are tied to it for screen readers. */
export function Field({ name, id, label, hint, error, ...input }: FieldProps) {
	return (
		<LabelledControl
			name={name}
			id={id}
			label={label}
			hint={hint}
			error={error}
			// What people type keeps its own direction in a right-to-left interface ("1 Greenway"
			// stays so on an Arabic page); a field may set its own.
			control={(wiring) => <input dir="auto" {...wiring} {...input} />}
		/>
	)
}

type TextAreaFieldProps = FrameProps & Omit<ComponentPropsWithRef<'textarea'>, 'id' | 'name'>

/** Field's multi-line twin: the same label, hint and error wiring. */
export function TextAreaField({
	name,
	label,
	hint,
	error,
	tools,
	...textarea
}: TextAreaFieldProps) {
	return (
		<LabelledControl
			name={name}
			label={label}
			hint={hint}
			error={error}
			tools={tools}
			control={(wiring) => <textarea dir="auto" {...wiring} {...textarea} />}
		/>
	)
}

type SelectFieldProps = FrameProps & Omit<ComponentPropsWithRef<'select'>, 'id' | 'name'>

/** Field's choice-from-a-list twin: the same label, hint and error wiring. */
export function SelectField({
	name,
	id,
	label,
	hint,
	error,
	children,
	...select
}: SelectFieldProps) {
	return (
		<LabelledControl
			name={name}
			id={id}
			label={label}
			hint={hint}
			error={error}
			control={(wiring) => (
				<select {...wiring} {...select}>
					{children}
				</select>
			)}
		/>
	)
}
