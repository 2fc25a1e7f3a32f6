// The parameter editor's form (/admin/config/:key) as plain fields, both ways: a stored setting
// as the text in each control, and the posted controls as a setting, with a message for each
// control whose text is not a value. Works without JavaScript: adding, removing and moving a
// condition are posts too, answered with the edited form.
import type { FieldErrors } from '#app/lib/field-errors.ts'
import type { DeviceClass } from '#storage/port/analytics.ts'
import type { ConditionRules, ParameterSetting } from '#storage/port/config.ts'
import { deviceClasses, type ParameterKey, parameters } from './parameters.ts'

export interface ConditionFields {
	percent: string
	/** Comma-separated. */
	languages: string
	devices: DeviceClass[]
	/** datetime-local text, in UTC. */
	from: string
	until: string
	value: string
}

export interface ParameterFields {
	/** False: the server sets no default, the in-app default applies. */
	useServerDefault: boolean
	serverDefault: string
	conditions: ConditionFields[]
}

export type FormIntent =
	| { kind: 'publish' }
	| { kind: 'add' }
	| { kind: 'remove' | 'up' | 'down'; index: number }

export function valueToText(key: ParameterKey, value: unknown): string {
	const { type } = parameters[key]
	if (value === undefined) return type === 'boolean' ? String(parameters[key].defaultValue) : ''
	if (type === 'json') return JSON.stringify(value, null, 2)
	return String(value)
}

/** An ISO instant as a datetime-local control's text, in UTC. */
export function instantToLocalText(iso: string | undefined): string {
	if (!iso) return ''
	const text = new Date(iso).toISOString()
	return text.endsWith(':00.000Z') ? text.slice(0, 16) : text.slice(0, 19)
}

export function emptyCondition(key: ParameterKey): ConditionFields {
	return {
		percent: '',
		languages: '',
		devices: [],
		from: '',
		until: '',
		value: valueToText(key, undefined),
	}
}

export function settingToFields(
	key: ParameterKey,
	setting: ParameterSetting | undefined,
): ParameterFields {
	const useServerDefault = setting?.serverDefault !== undefined
	return {
		useServerDefault,
		serverDefault: valueToText(
			key,
			useServerDefault ? setting?.serverDefault : parameters[key].defaultValue,
		),
		conditions: (setting?.conditions ?? []).map(({ rules, value }) => ({
			percent: rules.percent === undefined ? '' : String(rules.percent),
			languages: rules.languages?.join(', ') ?? '',
			devices: rules.devices ?? [],
			from: instantToLocalText(rules.from),
			until: instantToLocalText(rules.until),
			value: valueToText(key, value),
		})),
	}
}

export function readFields(form: FormData): ParameterFields {
	const text = (name: string) => {
		const value = form.get(name)
		return typeof value === 'string' ? value : ''
	}
	const indices = new Set<number>()
	for (const name of form.keys()) {
		const match = /^conditions\.(\d{1,3})\./.exec(name)
		if (match) indices.add(Number(match[1]))
	}
	return {
		useServerDefault: text('serverDefaultMode') === 'server',
		serverDefault: text('serverDefault'),
		conditions: [...indices]
			.sort((a, b) => a - b)
			.map((i) => ({
				percent: text(`conditions.${i}.percent`),
				languages: text(`conditions.${i}.languages`),
				devices: deviceClasses.filter((device) =>
					form.getAll(`conditions.${i}.devices`).includes(device),
				),
				from: text(`conditions.${i}.from`),
				until: text(`conditions.${i}.until`),
				value: text(`conditions.${i}.value`),
			})),
	}
}

export function readIntent(form: FormData): FormIntent {
	const intent = form.get('intent')
	if (intent === 'add') return { kind: 'add' }
	const match = typeof intent === 'string' ? /^(remove|up|down)-(\d{1,3})$/.exec(intent) : null
	if (match) return { kind: match[1] as 'remove' | 'up' | 'down', index: Number(match[2]) }
	// Enter in a field, or anything unknown, publishes: the form's default action.
	return { kind: 'publish' }
}

/** The form after adding, removing or moving a condition. */
export function applyIntent(
	key: ParameterKey,
	fields: ParameterFields,
	intent: Exclude<FormIntent, { kind: 'publish' }>,
): ParameterFields {
	const conditions = [...fields.conditions]
	if (intent.kind === 'add') conditions.push(emptyCondition(key))
	else if (intent.kind === 'remove') conditions.splice(intent.index, 1)
	else {
		const target = intent.kind === 'up' ? intent.index - 1 : intent.index + 1
		const [moving] = conditions.splice(intent.index, 1)
		if (moving && target >= 0 && target <= conditions.length) conditions.splice(target, 0, moving)
		else return fields
	}
	return { ...fields, conditions }
}

type Parsed = { ok: true; value: unknown } | { ok: false; message: string }

export function textToValue(key: ParameterKey, text: string): Parsed {
	const { type } = parameters[key]
	if (type === 'string') return { ok: true, value: text }
	if (type === 'boolean') {
		if (text === 'true' || text === 'false') return { ok: true, value: text === 'true' }
		return { ok: false, message: 'Choose yes or no.' }
	}
	if (type === 'number') {
		const number = Number(text.trim())
		if (text.trim() === '' || !Number.isFinite(number))
			return { ok: false, message: 'Enter a number, such as 3.' }
		return { ok: true, value: number }
	}
	try {
		return { ok: true, value: JSON.parse(text) }
	} catch {
		return { ok: false, message: 'This is not valid JSON: check the quotes, commas and brackets.' }
	}
}

const localInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/

function textToInstant(text: string): Parsed {
	const trimmed = text.trim()
	const time = localInstant.test(trimmed) ? Date.parse(`${trimmed}Z`) : Number.NaN
	if (Number.isNaN(time))
		return { ok: false, message: 'Enter a date and time (UTC), such as 2026-05-01T09:00.' }
	return { ok: true, value: new Date(time).toISOString() }
}

/**
 * The setting the fields say, and a message for each field whose text is no value at all (the
 * document's schema checks the rest).
 */
export function fieldsToSetting(
	key: ParameterKey,
	fields: ParameterFields,
): { setting: ParameterSetting; errors: FieldErrors } {
	const errors: FieldErrors = {}
	const read = (name: string, parsed: Parsed) => {
		if (parsed.ok) return parsed.value
		errors[name] = [parsed.message]
		return undefined
	}
	const setting: ParameterSetting = { conditions: [] }
	if (fields.useServerDefault)
		setting.serverDefault = read('serverDefault', textToValue(key, fields.serverDefault))
	fields.conditions.forEach((condition, i) => {
		const name = (field: string) => `conditions.${i}.${field}`
		const rules: ConditionRules = {}
		if (condition.percent.trim()) {
			const percent = Number(condition.percent.trim())
			rules.percent = Number.isFinite(percent)
				? percent
				: (read(name('percent'), { ok: false, message: 'Enter a percentage, such as 10.' }) as
						| number
						| undefined)
		}
		const languages = condition.languages
			.split(',')
			.map((language) => language.trim().toLowerCase())
			.filter(Boolean)
		if (languages.length > 0) rules.languages = languages
		if (condition.devices.length > 0) rules.devices = condition.devices
		if (condition.from.trim())
			rules.from = read(name('from'), textToInstant(condition.from)) as string | undefined
		if (condition.until.trim())
			rules.until = read(name('until'), textToInstant(condition.until)) as string | undefined
		setting.conditions.push({
			rules,
			value: read(name('value'), textToValue(key, condition.value)),
		})
	})
	return { setting, errors }
}

/** The document schema's messages for this parameter, under the names of the form's controls. */
export function formErrors(key: ParameterKey, documentErrors: FieldErrors): FieldErrors {
	const errors: FieldErrors = {}
	const prefix = `parameters.${key}.`
	for (const [path, messages] of Object.entries(documentErrors)) {
		const name = path.startsWith(prefix)
			? path
					.slice(prefix.length)
					.replace(/^(conditions\.\d+)\.rules\.(\w+).*$/, '$1.$2')
					.replace(/^(conditions\.\d+)\.rules$/, '$1.form')
			: 'form'
		errors[name] = [...(errors[name] ?? []), ...messages]
	}
	return errors
}
