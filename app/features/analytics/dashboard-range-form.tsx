// The dashboard's period: a GET form that works without JavaScript. With it, typing a date picks
// "Dates of your own", and a preset leaves the dates out of the address.
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Form, useLocation, useSubmit } from 'react-router'
import { Field, schemaMessage } from '#app/components/ui/field.tsx'
import type { FieldErrors } from '#app/lib/field-errors.ts'
import { useSiteTimeZone } from '#app/lib/root-data.ts'

const choices = [
	{ value: '7', label: msg`Last 7 days` },
	{ value: '30', label: msg`Last 30 days` },
	{ value: '90', label: msg`Last 90 days` },
	{ value: 'custom', label: msg`Dates of your own` },
] as const

interface RangeFormProps {
	today: string
	/** The choice to show as made: a preset, 'custom', or what the address held (shown unchecked). */
	choice: string
	from: string
	to: string
	errors: FieldErrors
}

export function RangeForm({ today, choice, from, to, errors }: RangeFormProps) {
	const submit = useSubmit()
	const { search } = useLocation()
	const { t, i18n } = useLingui()
	const zone = useSiteTimeZone() ?? 'UTC'
	const checked = choice === '' && (from || to) ? 'custom' : choice
	// The server's message (English), in the interface's language where it is registered.
	const rangeError = errors.range?.map((text) => schemaMessage(i18n, text)).join(' ')
	const pickCustom = (input: HTMLInputElement) => {
		const custom = input.form?.querySelector<HTMLInputElement>(
			'input[name="range"][value="custom"]',
		)
		if (custom) custom.checked = true
	}
	return (
		<Form
			// A new address brings the form back to what it shows.
			key={search}
			method="get"
			className="range-form"
			onSubmit={(event) => {
				const fields = new FormData(event.currentTarget)
				if (fields.get('range') !== 'custom') {
					fields.delete('from')
					fields.delete('to')
				}
				event.preventDefault()
				// A navigation cut short by another rejects with an AbortError: nothing is lost.
				submit(fields, { method: 'get' }).catch(() => {})
			}}
		>
			<fieldset>
				<legend>
					<Trans>Period</Trans>
				</legend>
				{rangeError ? (
					<p id="range-error" className="field-error">
						{rangeError}
					</p>
				) : null}
				<div className="range-choices">
					{choices.map((option) => (
						<label key={option.value} className="range-choice">
							<input
								type="radio"
								name="range"
								value={option.value}
								defaultChecked={checked === option.value}
								aria-invalid={rangeError ? true : undefined}
								aria-describedby={rangeError ? 'range-error' : undefined}
							/>{' '}
							{i18n._(option.label)}
						</label>
					))}
				</div>
				<div className="range-dates">
					<div className="range-date">
						<Field
							name="from"
							label={t`First day`}
							hint={t`Counted from midnight in ${zone}`}
							type="date"
							max={today}
							defaultValue={from}
							error={errors.from}
							onChange={(event) => pickCustom(event.currentTarget)}
						/>
					</div>
					<div className="range-date">
						<Field
							name="to"
							label={t`Last day`}
							hint={t`Counted to midnight in ${zone}; today (${today}) at the latest`}
							type="date"
							max={today}
							defaultValue={to}
							error={errors.to}
							onChange={(event) => pickCustom(event.currentTarget)}
						/>
					</div>
				</div>
			</fieldset>
			<button type="submit">
				<Trans>Show this period</Trans>
			</button>
		</Form>
	)
}
