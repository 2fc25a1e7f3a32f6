// The contact form. Without JavaScript it is a plain form posting to the page's action, which
// renders the page again with the messages (and what was typed) or the confirmation. With
// JavaScript it posts through a fetcher (no reload), checks each field as it is left with the same
// schema the server uses, and shows the button busy while the message is on its way.
import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, type RefObject, useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { Field, schemaMessage, TextAreaField } from '#app/components/ui/field.tsx'
import type { FieldErrors } from '#app/lib/field-errors.ts'
import {
	type ContactField,
	contactFieldError,
	contactFields,
	contactLimits,
} from './contact.schema.ts'

export type ContactActionData =
	| { outcome: 'sent'; name: string; email: string }
	| {
			/**
			 * closed: the form was turned off (remote configuration) while the visitor wrote;
			 * unavailable: the database could not be reached.
			 */
			outcome: 'invalid' | 'limited' | 'closed' | 'unavailable'
			errors: FieldErrors
			values: Partial<Record<ContactField, string>>
			/** The form's key and token as they were posted, so the next try keeps them. */
			form?: { idempotencyKey: string; token: string }
	  }

interface ContactFormProps {
	/** The key and token the page was rendered with. */
	form: { idempotencyKey: string; token: string }
	/** The action's answer to a post made without JavaScript (or before the page was hydrated). */
	actionData: ContactActionData | undefined
	/** How long after the form was drawn a message may be sent (CONTACT_FORM_MIN_SECONDS). */
	minimumWaitMs: number
}

const honeypotName = 'website'

export function ContactForm({ form, actionData, minimumWaitMs }: ContactFormProps) {
	const { t, i18n } = useLingui()
	const fetcher = useFetcher<ContactActionData>()
	const result = fetcher.data ?? actionData
	// When this script first drew the form: no sooner than the server did, so waiting from here
	// waits at least as long as the server's check counts.
	const drawnAt = useRef(0)
	useEffect(() => {
		drawnAt.current = Date.now()
	}, [])
	// A message sent within the first seconds (autofill and a paste are quick) is held back until
	// the form is old enough, instead of being taken for a robot's and silently dropped.
	const [holding, setHolding] = useState(false)
	useEffect(() => {
		if (!holding) return
		const timer = setTimeout(
			() => {
				setHolding(false)
				const form = formRef.current
				if (form) fetcher.submit(form, { method: 'post', action: '/contact' })
			},
			Math.max(0, drawnAt.current + minimumWaitMs - Date.now()),
		)
		return () => clearTimeout(timer)
	}, [holding, minimumWaitMs, fetcher.submit])
	const busy = fetcher.state !== 'idle' || holding
	const { errors, setErrors, fieldEvents, checkAll, sendPress } = useFieldChecks(
		result && result.outcome !== 'sent' ? result.errors : {},
	)
	const formRef = useRef<HTMLFormElement>(null)
	const alertRef = useRef<HTMLParagraphElement>(null)

	// A new answer from the server replaces the messages shown; the form-level one gets focus.
	useEffect(() => {
		if (!fetcher.data || fetcher.data.outcome === 'sent') return
		setErrors(fetcher.data.errors)
		if (fetcher.data.errors.form) alertRef.current?.focus()
		else focusFirstInvalid(formRef, fetcher.data.errors)
	}, [fetcher.data, setErrors])

	if (result?.outcome === 'sent') return <Confirmation name={result.name} email={result.email} />

	const values = result?.values ?? {}
	const hidden = result?.form ?? form

	function onSubmit(event: FormEvent<HTMLFormElement>) {
		if (busy) {
			event.preventDefault()
			return
		}
		const found = checkAll(new FormData(event.currentTarget))
		if (Object.keys(found).length > 0) {
			event.preventDefault()
			setErrors(found)
			focusFirstInvalid(formRef, found)
			return
		}
		if (Date.now() < drawnAt.current + minimumWaitMs) {
			event.preventDefault()
			setHolding(true)
		}
	}

	// The page's own message, or a schema's (English) in the interface's language where it can be.
	const formError = (errors.form ?? errors.idempotencyKey)
		?.map((text) => schemaMessage(i18n, text))
		.join(' ')
	return (
		<fetcher.Form
			method="post"
			action="/contact"
			className="form contact-form"
			noValidate
			ref={formRef}
			onSubmit={onSubmit}
			aria-labelledby="contact-form-title"
		>
			<h2 id="contact-form-title">
				<Trans>Write to us</Trans>
			</h2>
			<p className="hint">
				<Trans>All fields are required except the subject.</Trans>
			</p>
			{formError ? (
				<p role="alert" className="form-error" tabIndex={-1} ref={alertRef}>
					{formError}
				</p>
			) : null}
			<input type="hidden" name="idempotencyKey" value={hidden.idempotencyKey} />
			<input type="hidden" name="token" value={hidden.token} />
			<ContactFields values={values} errors={errors} fieldEvents={fieldEvents} />
			<button type="submit" aria-disabled={busy || undefined} {...sendPress}>
				{busy ? t`Sending…` : t`Send message`}
			</button>
			<p className="visually-hidden" role="status">
				{busy ? t`Sending your message…` : ''}
			</p>
		</fetcher.Form>
	)
}

type FieldEvents = (field: ContactField) => {
	onBlur: (event: { currentTarget: { value: string } }) => void
	onChange: (event: { currentTarget: { value: string } }) => void
}

/** The form's fields, checked as they are left, and the honeypot. */
function ContactFields({
	values,
	errors,
	fieldEvents,
}: {
	values: Partial<Record<ContactField, string>>
	errors: FieldErrors
	fieldEvents: FieldEvents
}) {
	const { t, i18n } = useLingui()
	const min = i18n.number(contactLimits.messageMin)
	const max = i18n.number(contactLimits.messageMax)
	return (
		<>
			<Field
				name="name"
				label={t`Your name`}
				autoComplete="name"
				required
				maxLength={contactLimits.name}
				defaultValue={values.name}
				error={errors.name}
				{...fieldEvents('name')}
			/>
			<Field
				name="email"
				label={t`Your email address`}
				hint={t`We reply to this address and use it for nothing else.`}
				type="email"
				autoComplete="email"
				spellCheck={false}
				required
				defaultValue={values.email}
				error={errors.email}
				{...fieldEvents('email')}
			/>
			<Field
				name="subject"
				label={t`Subject (optional)`}
				maxLength={contactLimits.subject}
				defaultValue={values.subject}
				error={errors.subject}
				{...fieldEvents('subject')}
			/>
			<TextAreaField
				name="message"
				label={t`Your message`}
				hint={t`Between ${min} and ${max} characters.`}
				rows={8}
				required
				defaultValue={values.message}
				error={errors.message}
				{...fieldEvents('message')}
			/>
			{/* For robots only: people never see or reach it, and a filled one is quietly dropped. */}
			<div className="visually-hidden" aria-hidden="true">
				<label htmlFor={honeypotName}>
					<Trans>Leave this field empty</Trans>
				</label>
				<input
					id={honeypotName}
					name={honeypotName}
					type="text"
					tabIndex={-1}
					autoComplete="off"
					defaultValue=""
				/>
			</div>
		</>
	)
}

/**
 * Each field checked with the server's own schema: when it is left after a change, and again
 * while it shows a message, so the message goes as soon as the value is right.
 */
function useFieldChecks(initial: FieldErrors) {
	const [errors, setErrors] = useState<FieldErrors>(initial)
	const [dirty] = useState(() => new Set<string>())
	// Pressing Send leaves the field being typed in. Its message, shown then, moved the button
	// down before the press ended, and the click was lost; sending checks every field anyway.
	// The press is remembered by its time, so no timer outlives the form.
	const sendPressedAt = useRef(-Infinity)
	const sendPress = {
		onPointerDown: () => {
			sendPressedAt.current = performance.now()
		},
	}

	function check(field: ContactField, value: string) {
		const error = contactFieldError(field, value)
		setErrors((current) => {
			const { [field]: _old, form: _form, ...rest } = current
			return error ? { ...rest, [field]: [error] } : rest
		})
	}

	const fieldEvents: FieldEvents = (field) => ({
		onBlur: (event) => {
			if (performance.now() - sendPressedAt.current < 1_000) return
			// Leaving a field untouched (tabbing through) is not a mistake yet.
			if (dirty.has(field) || errors[field]) check(field, event.currentTarget.value)
		},
		onChange: (event) => {
			dirty.add(field)
			if (errors[field]) check(field, event.currentTarget.value)
		},
	})

	/** Every field's message for what is about to be sent; none when all is right. */
	const checkAll = (data: FormData): FieldErrors => {
		const found: FieldErrors = {}
		for (const field of contactFields) {
			const error = contactFieldError(field, String(data.get(field) ?? ''))
			if (error) found[field] = [error]
		}
		return found
	}

	return { errors, setErrors, fieldEvents, checkAll, sendPress }
}

function focusFirstInvalid(form: RefObject<HTMLFormElement | null>, errors: FieldErrors) {
	const first = contactFields.find((field) => errors[field])
	if (!first) return
	const element = form.current?.elements.namedItem(first)
	if (element instanceof HTMLElement) element.focus()
}

function Confirmation({ name, email }: { name: string; email: string }) {
	const { t } = useLingui()
	const ref = useRef<HTMLDivElement>(null)
	// Moved here so keyboard and screen reader users land on the news that the form is gone.
	useEffect(() => ref.current?.focus(), [])
	return (
		<div role="status" className="notice contact-sent" tabIndex={-1} ref={ref}>
			<h2>
				<Trans>Your message has been received</Trans>
			</h2>
			<p>{t`Thank you, ${name}. We have your message and will reply to ${email}.`}</p>
			<p>
				<a href="/contact">
					<Trans>Write another message</Trans>
				</a>
			</p>
		</div>
	)
}
