// What a tag's and an author profile's staff pages share: the name and address fields, merging
// into another, and deleting.
import { Form } from 'react-router'
import { Field } from '#app/components/ui/field.tsx'
import type { FieldErrors } from '#app/lib/field-errors.ts'

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
	return (
		<>
			<Field
				name="name"
				label="Name"
				defaultValue={value('name', name)}
				error={errors.name}
				required
				maxLength={maxName}
			/>
			<Field
				name="slug"
				label="Address (slug)"
				hint="Changing it keeps the old address working: it sends readers here (301)."
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
	if (others.length === 0) return null
	return (
		<Form method="post" className="form">
			<h2>Merge into another {kind}</h2>
			<p className="hint">{hint}</p>
			<label htmlFor="merge-into">Merge “{name}” into</label>
			<select id="merge-into" name="into" defaultValue="">
				<option value="" disabled>
					Choose a {kind}
				</option>
				{others.map((other) => (
					<option key={other.id} value={other.id}>
						{other.name}
					</option>
				))}
			</select>
			{error ? <p className="field-error">{error.join(' ')}</p> : null}
			<button type="submit" name="intent" value="merge" className="secondary" disabled={busy}>
				Merge
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
			<h2>Delete</h2>
			<p className="hint">{hint}</p>
			<button type="submit" name="intent" value="delete" className="destructive" disabled={busy}>
				{label}
			</button>
		</Form>
	)
}
