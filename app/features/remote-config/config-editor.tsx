// One parameter's form (/admin/config/:key): its server default and its ordered conditions.
// Every button posts the whole form, so adding, removing and moving conditions work without
// JavaScript; with it, focus goes where the edit happened.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect } from 'react'
import { Form } from 'react-router'
import { Field, schemaMessage } from '#app/components/ui/field.tsx'
import type { FieldErrors } from '#app/lib/field-errors.ts'
import type { DeviceClass } from '#storage/port/analytics.ts'
import type { ConditionFields, ParameterFields } from './config-form.ts'
import { ValueControl } from './config-value-control.tsx'
import { deviceClasses, type ParameterKey, parameters } from './parameters.ts'

/** The device classes by the names conditions give them (describe.ts writes the same words). */
const deviceNames: Record<DeviceClass, MessageDescriptor> = {
	mobile: msg({ message: 'mobile', comment: 'A class of devices, by screen width: phones' }),
	tablet: msg({ message: 'tablet', comment: 'A class of devices, by screen width' }),
	desktop: msg({ message: 'desktop', comment: 'A class of devices, by screen width: computers' }),
}

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
	const { t, i18n } = useLingui()
	const name = (field: string) => `conditions.${index}.${field}`
	const number = index + 1
	// The server's messages (English), in the interface's language where they are registered.
	const message = (field: string) =>
		errors[name(field)]?.map((text) => schemaMessage(i18n, text)).join(' ')
	const devicesError = message('devices')
	const formError = message('form')
	return (
		<li>
			<fieldset className="config-condition">
				<legend>
					<Trans>Condition {number}</Trans>
				</legend>
				{formError ? <p className="field-error">{formError}</p> : null}
				<Field
					name={name('percent')}
					label={t`Percent of visitors`}
					hint={t`Above 0, up to 100, two decimals at most. Empty: every visitor.`}
					inputMode="decimal"
					defaultValue={condition.percent}
					error={errors[name('percent')]}
				/>
				<Field
					name={name('languages')}
					label={t`Languages`}
					hint={t`Comma-separated language codes, such as fr, pt. Empty: any language.`}
					defaultValue={condition.languages}
					error={errors[name('languages')]}
				/>
				<fieldset
					className="config-devices"
					aria-describedby={devicesError ? `${name('devices')}-error` : undefined}
				>
					<legend>
						<Trans>Devices (none ticked: any device)</Trans>
					</legend>
					{deviceClasses.map((device) => (
						<label key={device}>
							<input
								type="checkbox"
								name={name('devices')}
								value={device}
								defaultChecked={condition.devices.includes(device)}
							/>{' '}
							{i18n._(deviceNames[device])}
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
					label={t`From (UTC)`}
					hint={t`Date and time in UTC, not your local time. Empty: no start.`}
					type="datetime-local"
					defaultValue={condition.from}
					error={errors[name('from')]}
				/>
				<Field
					name={name('until')}
					label={t`Until (UTC)`}
					hint={t`Date and time in UTC, not included. Empty: no end.`}
					type="datetime-local"
					defaultValue={condition.until}
					error={errors[name('until')]}
				/>
				<ValueControl
					parameter={parameter}
					name={name('value')}
					label={t`Value`}
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
						<Trans>
							Move up<span className="visually-hidden">: condition {number}</span>
						</Trans>
					</button>
					<button
						type="submit"
						name="intent"
						value={`down-${index}`}
						id={`down-${index}`}
						disabled={index === count - 1}
					>
						<Trans>
							Move down<span className="visually-hidden">: condition {number}</span>
						</Trans>
					</button>
					<button type="submit" name="intent" value={`remove-${index}`}>
						<Trans>
							Remove<span className="visually-hidden">: condition {number}</span>
						</Trans>
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
	const { t } = useLingui()
	useEffect(() => {
		if (focus) document.getElementById(focus)?.focus()
	}, [focus])
	const inAppDefault = JSON.stringify(parameters[parameter].defaultValue)
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
				<Trans>Publish</Trans>
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
				<legend>
					<Trans>Server default</Trans>
				</legend>
				<label>
					<input
						type="radio"
						name="serverDefaultMode"
						value="app"
						defaultChecked={!fields.useServerDefault}
					/>{' '}
					<Trans>Use the in-app default ({inAppDefault})</Trans>
				</label>
				<label>
					<input
						type="radio"
						name="serverDefaultMode"
						value="server"
						defaultChecked={fields.useServerDefault}
					/>{' '}
					<Trans>Set a server default</Trans>
				</label>
				<ValueControl
					parameter={parameter}
					name="serverDefault"
					label={t`Server default value`}
					hint={t`Used when “Set a server default” is chosen.`}
					value={fields.serverDefault}
					error={errors.serverDefault}
				/>
			</fieldset>
			<h2>
				<Trans>Conditions</Trans>
			</h2>
			<p className="hint">
				<Trans>
					In order: a visitor gets the value of the first condition whose rules all hold for them;
					otherwise the server default. Leave a rule empty to not use it.
				</Trans>
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
				<p>
					<Trans>No conditions: every visitor gets the server default.</Trans>
				</p>
			)}
			<div className="config-actions">
				<button type="submit" name="intent" value="add" id="add-condition" className="secondary">
					<Trans>Add a condition</Trans>
				</button>
				<button type="submit" name="intent" value="publish" disabled={busy}>
					{busy ? t`Publishing…` : t`Publish`}
				</button>
			</div>
		</Form>
	)
}
