// What a tag's and an author profile's staff pages share: merging into another, and deleting.
import { Form } from 'react-router'

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
