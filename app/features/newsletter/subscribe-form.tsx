// The subscribe form: at the foot of every public page and on /newsletter. A plain POST to
// /newsletter, so it works without JavaScript; with it, React Router posts it and shows the
// answer on /newsletter the same way.
import { Trans, useLingui } from '@lingui/react/macro'
import { Form } from 'react-router'

export const newsletterPath = '/newsletter'

/**
 * Whether a public page's foot offers the form: not on the newsletter's own page (it has the
 * form), nor where a subscriber confirms, changes or ends a subscription (a second form asking
 * them to subscribe there would read as if the first had not worked).
 */
export function footOffersSubscribe(pathname: string): boolean {
	return !/^\/newsletter(?:\/(?:confirm|preferences|unsubscribe))?\/?$/.test(pathname)
}

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
	const { t, i18n } = useLingui()
	const errorId = `${id}-error`
	// A schema's message (English) in the interface's language where its catalogue has it.
	const shownError = error && Object.hasOwn(i18n.messages, error) ? i18n._(error) : error
	return (
		// noValidate: a missing or mistyped address is answered by /newsletter in the page's own
		// words and language, beside the field, not in the browser's bubble.
		<Form
			method="post"
			action={newsletterPath}
			className="subscribe-form"
			aria-labelledby={`${id}-title`}
			noValidate
			onSubmit={(event) => {
				// Nothing typed: the cursor goes to the field, and the reader stays on the page
				// (a mistyped address is still answered by /newsletter, in words).
				const field = event.currentTarget.elements.namedItem('email')
				if (field instanceof HTMLInputElement && field.value.trim() === '') {
					event.preventDefault()
					field.focus()
				}
			}}
		>
			<p id={`${id}-title`} className="subscribe-title">
				{title}
			</p>
			<div className="subscribe-row">
				<label htmlFor={`${id}-email`} className="visually-hidden">
					<Trans>Email address</Trans>
				</label>
				<input
					id={`${id}-email`}
					name="email"
					type="email"
					autoComplete="email"
					required
					maxLength={254}
					placeholder={t({
						message: 'you@example.org',
						comment: 'An example email address: one in your language’s style, at example.org',
					})}
					defaultValue={email}
					aria-invalid={error ? true : undefined}
					aria-describedby={error ? errorId : undefined}
				/>
				{/* Hidden from people and screen readers; robots fill it in. */}
				<div className="visually-hidden" aria-hidden="true">
					<label htmlFor={`${id}-website`}>
						<Trans>Leave this field empty</Trans>
					</label>
					<input id={`${id}-website`} name="website" type="text" tabIndex={-1} autoComplete="off" />
				</div>
				<button type="submit">
					<Trans>Subscribe</Trans>
				</button>
			</div>
			{error ? (
				<p id={errorId} className="field-error">
					{shownError}
				</p>
			) : null}
		</Form>
	)
}
