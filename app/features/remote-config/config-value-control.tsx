// A parameter value's control, by the parameter's type: text for a string, a number field, a
// yes/no choice for a boolean, a textarea for JSON. Its text is read by config-form.ts.
import { useLingui } from '@lingui/react/macro'
import { Field, schemaMessage, TextAreaField } from '#app/components/ui/field.tsx'
import { type ParameterKey, parameters } from './parameters.ts'

export function ValueControl({
	parameter,
	name,
	label,
	hint,
	value,
	error,
}: {
	parameter: ParameterKey
	name: string
	label: string
	hint?: string
	value: string
	error?: string[]
}) {
	const { type } = parameters[parameter]
	const { t, i18n } = useLingui()
	if (type === 'boolean') {
		// The server's messages (English), in the interface's language where they are registered.
		const message = error?.map((text) => schemaMessage(i18n, text)).join(' ')
		const describedBy = [hint ? `${name}-hint` : '', message ? `${name}-error` : '']
			.filter(Boolean)
			.join(' ')
		return (
			<>
				<label htmlFor={name}>{label}</label>
				{hint ? (
					<p id={`${name}-hint`} className="hint">
						{hint}
					</p>
				) : null}
				<select
					id={name}
					name={name}
					defaultValue={value}
					aria-invalid={message ? true : undefined}
					aria-describedby={describedBy || undefined}
				>
					<option value="true">{t`Yes`}</option>
					<option value="false">{t`No`}</option>
				</select>
				{message ? (
					<p id={`${name}-error`} className="field-error">
						{message}
					</p>
				) : null}
			</>
		)
	}
	if (type === 'json')
		return (
			<TextAreaField
				name={name}
				label={label}
				hint={hint ? `${t`JSON.`} ${hint}` : t`JSON.`}
				defaultValue={value}
				error={error}
				rows={4}
			/>
		)
	return (
		<Field
			name={name}
			label={label}
			hint={hint}
			type={type === 'number' ? 'number' : 'text'}
			step={type === 'number' ? 'any' : undefined}
			defaultValue={value}
			error={error}
		/>
	)
}
