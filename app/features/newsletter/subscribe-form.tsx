// The subscribe form: at the foot of every public page and on /newsletter. A plain POST to
// /newsletter, so it works without JavaScript; with it, React Router posts it and shows the
// answer on /newsletter the same way.
import { Form } from 'react-router'

export const newsletterPath = '/newsletter'

export function SubscribeForm({
	id,
	title,
	email = '',
	error,
}: {
	/** Unique on the page: the footer's and the page's forms may both be there. */
	id: string
	title: string
	email?: string
	error?: string
}) {
	const errorId = `${id}-error`
	return (
		<Form
			method="post"
			action={newsletterPath}
			className="subscribe-form"
			aria-labelledby={`${id}-title`}
		>
			<p id={`${id}-title`} className="subscribe-title">
				{title}
			</p>
			<div className="subscribe-row">
				<label htmlFor={`${id}-email`} className="visually-hidden">
					Email address
				</label>
				<input
					id={`${id}-email`}
					name="email"
					type="email"
					autoComplete="email"
					required
					maxLength={254}
					placeholder="you@example.org"
					defaultValue={email}
					aria-invalid={error ? true : undefined}
					aria-describedby={error ? errorId : undefined}
				/>
				{/* Hidden from people and screen readers; robots fill it in. */}
				<div className="visually-hidden" aria-hidden="true">
					<label htmlFor={`${id}-website`}>Leave this field empty</label>
					<input id={`${id}-website`} name="website" type="text" tabIndex={-1} autoComplete="off" />
				</div>
				<button type="submit">Subscribe</button>
			</div>
			{error ? (
				<p id={errorId} className="field-error">
					{error}
				</p>
			) : null}
		</Form>
	)
}
