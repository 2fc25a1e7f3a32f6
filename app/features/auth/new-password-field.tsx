import { useLingui } from '@lingui/react/macro'
import { Field } from '#app/components/ui/field.tsx'
import { maxPasswordLength, minPasswordLength } from './password-rules.ts'

/** The field for choosing a password, with the rules the server applies. */
export function NewPasswordField({
	name,
	label,
	error,
}: {
	name: string
	label: string
	error?: string | string[]
}) {
	const { t } = useLingui()
	// The words of password-rules.ts's passwordHint, here so they can be translated.
	const hint = t`${minPasswordLength} to ${maxPasswordLength} characters. A few unrelated words make a strong one.`
	return (
		<Field
			name={name}
			label={label}
			type="password"
			autoComplete="new-password"
			required
			minLength={minPasswordLength}
			maxLength={maxPasswordLength}
			hint={hint}
			error={error}
		/>
	)
}
