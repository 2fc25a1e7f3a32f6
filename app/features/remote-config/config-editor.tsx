// One parameter's form (/admin/config/:key): its server default and its ordered conditions.
// Every button posts the whole form, so adding, removing and moving conditions work without
// JavaScript; with it, focus goes where the edit happened.
import { useEffect } from 'react'
import { Form } from 'react-router'
import { Field } from '#app/components/ui/field.tsx'
import type { FieldErrors } from '#app/lib/field-errors.ts'
import type { ConditionFields, ParameterFields } from './config-form.ts'
import { ValueControl } from './config-value-control.tsx'
import { deviceClasses, type ParameterKey, parameters } from './parameters.ts'

function ConditionRow({
	parameter,
	condition,
	index,
	count,
	errors,
}: {
	parameter: ParameterKey
	condition: ConditionFields
	index: number
	count: number
	errors: FieldErrors
}) {
	const name = (field: string) => `conditions.${index}.${field}`
	const number = index + 1
	const devicesError = errors[name('devices')]?.join(' ')
	return (
		<li>
			<fieldset className="config-condition">
				<legend>Condition {number}</legend>
				{errors[name('form')] ? (
					<p className="field-error">{errors[name('form')]?.join(' ')}</p>
				) : null}
				<Field
					name={name('percent')}
					label="Percent of visitors"
					hint="Above 0, up to 100, two decimals at most. Empty: every visitor."
					inputMode="decimal"
					defaultValue={condition.percent}
					error={errors[name('percent')]}
				/>
				<Field
					name={name('languages')}
					label="Languages"
					hint="Comma-separated language codes, such as fr, pt. Empty: any language."
					defaultValue={condition.languages}
					error={errors[name('languages')]}
				/>
				<fieldset
					className="config-devices"
					aria-describedby={devicesError ? `${name('devices')}-error` : undefined}
				>
					<legend>Devices (none ticked: any device)</legend>
					{deviceClasses.map((device) => (
						<label key={device}>
							<input
								type="checkbox"
								name={name('devices')}
								value={device}
								defaultChecked={condition.devices.includes(device)}
							/>{' '}
							{device}
						</label>
					))}
					{devicesError ? (
						<p id={`${name('devices')}-error`} className="field-error">
							{devicesError}
						</p>
					) : null}
				</fieldset>
				<Field
					name={name('from')}
					label="From (UTC)"
					hint="Date and time in UTC, not your local time. Empty: no start."
					type="datetime-local"
					defaultValue={condition.from}
					error={errors[name('from')]}
				/>
				<Field
					name={name('until')}
					label="Until (UTC)"
					hint="Date and time in UTC, not included. Empty: no end."
					type="datetime-local"
					defaultValue={condition.until}
					error={errors[name('until')]}
				/>
				<ValueControl
					parameter={parameter}
					name={name('value')}
					label="Value"
					value={condition.value}
					error={errors[name('value')]}
				/>
				<div className="config-row-actions">
					<button
						type="submit"
						name="intent"
						value={`up-${index}`}
						id={`up-${index}`}
						disabled={index === 0}
					>
						Move up
						<span className="visually-hidden">: condition {number}</span>
					</button>
					<button
						type="submit"
						name="intent"
						value={`down-${index}`}
						id={`down-${index}`}
						disabled={index === count - 1}
					>
						Move down
						<span className="visually-hidden">: condition {number}</span>
					</button>
					<button type="submit" name="intent" value={`remove-${index}`}>
						Remove
						<span className="visually-hidden">: condition {number}</span>
					</button>
				</div>
			</fieldset>
		</li>
	)
}

export function ParameterEditor({
	parameter,
	fields,
	baseVersion,
	errors,
	focus,
	busy,
}: {
	parameter: ParameterKey
	fields: ParameterFields
	baseVersion: number
	errors: FieldErrors
	/** The id of the control to focus after an edit. */
	focus?: string
	busy: boolean
}) {
	useEffect(() => {
		if (focus) document.getElementById(focus)?.focus()
	}, [focus])
	const declaration = parameters[parameter]
	return (
		// Keyed by its content: an edit answered by the server shows the new rows, not the old
		// rows' uncontrolled values.
		<Form method="post" className="form config-form" key={JSON.stringify(fields)}>
			{/* First in the form, so Enter in a field publishes rather than moving a condition. */}
			<button
				type="submit"
				name="intent"
				value="publish"
				className="config-default-submit"
				tabIndex={-1}
				aria-hidden="true"
			>
				Publish
			</button>
			<input type="hidden" name="baseVersion" value={baseVersion} />
			{/* Typing a value means setting it: the choice follows, rather than waiting to be made. */}
			<fieldset
				onChange={(event) => {
					if ((event.target as { name?: string }).name !== 'serverDefault') return
					const server = event.currentTarget.querySelector<HTMLInputElement>(
						'input[name="serverDefaultMode"][value="server"]',
					)
					if (server) server.checked = true
				}}
			>
				<legend>Server default</legend>
				<label>
					<input
						type="radio"
						name="serverDefaultMode"
						value="app"
						defaultChecked={!fields.useServerDefault}
					/>{' '}
					Use the in-app default ({JSON.stringify(declaration.defaultValue)})
				</label>
				<label>
					<input
						type="radio"
						name="serverDefaultMode"
						value="server"
						defaultChecked={fields.useServerDefault}
					/>{' '}
					Set a server default
				</label>
				<ValueControl
					parameter={parameter}
					name="serverDefault"
					label="Server default value"
					hint="Used when “Set a server default” is chosen."
					value={fields.serverDefault}
					error={errors.serverDefault}
				/>
			</fieldset>
			<h2>Conditions</h2>
			<p className="hint">
				In order: a visitor gets the value of the first condition whose rules all hold for them;
				otherwise the server default. Leave a rule empty to not use it.
			</p>
			{fields.conditions.length > 0 ? (
				<ol className="config-conditions">
					{fields.conditions.map((condition, index) => (
						<ConditionRow
							// biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place; the form is keyed by its content
							key={index}
							parameter={parameter}
							condition={condition}
							index={index}
							count={fields.conditions.length}
							errors={errors}
						/>
					))}
				</ol>
			) : (
				<p>No conditions: every visitor gets the server default.</p>
			)}
			<div className="config-actions">
				<button type="submit" name="intent" value="add" id="add-condition" className="secondary">
					Add a condition
				</button>
				<button type="submit" name="intent" value="publish" disabled={busy}>
					{busy ? 'Publishing…' : 'Publish'}
				</button>
			</div>
		</Form>
	)
}
