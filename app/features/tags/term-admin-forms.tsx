// What a tag's and an author profile's staff pages share: the name and address fields, merging
// into another, and deleting.
import { Trans, useLingui } from '@lingui/react/macro'
import { Form } from 'react-router'
import { ErrorSummary } from '#app/components/ui/error-summary.tsx'
import { Field } from '#app/components/ui/field.tsx'
import type { FieldErrors } from '#app/lib/field-errors.ts'

/**
 * What stopped a save, at the top of the form: the name and address's problems and the other
 * fields' (`labels`, in the form's order). A refused merge answers beside its own choice
 * instead (`into`), so the summary stays away then.
 */
export function TermErrorSummary({
	errors,
	labels,
	title,
}: {
	errors: FieldErrors
	labels: Record<string, string>
	title: string
}) {
	const { t } = useLingui()
	if (errors.into) return null
	return (
		<ErrorSummary
			errors={errors}
			labels={{ name: t`Name`, slug: t`Address (slug)`, ...labels }}
			title={title}
		/>
	)
}

/** The name and the address (slug), whose change leaves a 301 behind. */
export function NameAndAddress({
	name,
	slug,
	maxName,
	errors,
	value,
}: {
	name: string
	slug: string
	maxName: number
	errors: FieldErrors
	/** What was typed, shown again after a refusal (actionAnswer's). */
	value: (field: string, stored: string) => string
}) {
	const { t } = useLingui()
	return (
		<>
			<Field
				name="name"
				label={t`Name`}
				defaultValue={value('name', name)}
				error={errors.name}
				required
				maxLength={maxName}
			/>
			<Field
				name="slug"
				label={t`Address (slug)`}
				hint={t`Changing it keeps the old address working: it sends readers here (301).`}
				defaultValue={value('slug', slug)}
				error={errors.slug}
				required
				maxLength={80}
				autoCapitalize="off"
				spellCheck={false}
			/>
		</>
	)
}

export function MergeForm({
	kind,
	name,
	others,
	error,
	hint,
	busy,
}: {
	kind: 'tag' | 'profile'
	name: string
	others: { id: number; name: string }[]
	error?: string[]
	hint: string
	busy: boolean
}) {
	const { t } = useLingui()
	if (others.length === 0) return null
	return (
		<Form method="post" className="form">
			<h2>{kind === 'tag' ? t`Merge into another tag` : t`Merge into another profile`}</h2>
			<p className="hint">{hint}</p>
			<label htmlFor="merge-into">
				<Trans>Merge “{name}” into</Trans>
			</label>
			<select id="merge-into" name="into" defaultValue="">
				<option value="" disabled>
					{kind === 'tag' ? t`Choose a tag` : t`Choose a profile`}
				</option>
				{others.map((other) => (
					<option key={other.id} value={other.id}>
						{other.name}
					</option>
				))}
			</select>
			{error ? <p className="field-error">{error.join(' ')}</p> : null}
			<button type="submit" name="intent" value="merge" className="secondary" disabled={busy}>
				<Trans>Merge</Trans>
			</button>
		</Form>
	)
}

export function DeleteForm({
	question,
	hint,
	label,
	busy,
}: {
	/** Asked before it goes. */
	question: string
	hint: string
	label: string
	busy: boolean
}) {
	return (
		<Form
			method="post"
			className="form"
			onSubmit={(event) => {
				if (!window.confirm(question)) event.preventDefault()
			}}
		>
			<h2>
				<Trans>Delete</Trans>
			</h2>
			<p className="hint">{hint}</p>
			<button type="submit" name="intent" value="delete" className="destructive" disabled={busy}>
				{label}
			</button>
		</Form>
	)
}
