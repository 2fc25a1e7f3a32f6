// The parts the two webhooks pages share: the events an endpoint gets, as checkboxes.
import { useLingui } from '@lingui/react/macro'
import { useId } from 'react'
import { schemaMessage } from '#app/components/ui/field.tsx'
import { type WebhookEventType, webhookEventTypes } from '#storage/port/webhooks.ts'
import { eventLabels } from './webhook-admin-labels.ts'

export function EventChoices({ chosen, error }: { chosen: readonly string[]; error?: string[] }) {
	const { t, i18n } = useLingui()
	const id = useId()
	const message = error?.map((text) => schemaMessage(i18n, text)).join(' ')
	return (
		// Named and focusable, so the error summary's link takes a keyboard here.
		<fieldset
			className="webhook-events"
			id="events"
			tabIndex={-1}
			aria-describedby={message ? `${id}-error` : undefined}
		>
			<legend>{t`Events`}</legend>
			{webhookEventTypes.map((type: WebhookEventType) => (
				<div key={type} className="webhook-event">
					<div className="checkbox-row">
						<input
							type="checkbox"
							id={`${id}-${type}`}
							name="events"
							value={type}
							defaultChecked={chosen.includes(type)}
							aria-describedby={`${id}-${type}-hint`}
						/>
						<label htmlFor={`${id}-${type}`}>
							{i18n._(eventLabels[type].name)} <code>{type}</code>
						</label>
					</div>
					<p className="hint" id={`${id}-${type}-hint`}>
						{i18n._(eventLabels[type].when)}
					</p>
				</div>
			))}
			{message ? (
				<p className="field-error" id={`${id}-error`}>
					{message}
				</p>
			) : null}
		</fieldset>
	)
}
