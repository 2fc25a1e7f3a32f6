import { Field } from '#app/components/ui/field.tsx'
import { maxPasswordLength, minPasswordLength, passwordHint } from './password-rules.ts'

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
	return (
		<Field
			name={name}
			label={label}
			type="password"
			autoComplete="new-password"
			required
			minLength={minPasswordLength}
			maxLength={maxPasswordLength}
			hint={passwordHint}
			error={error}
		/>
	)
}
