// Configuration in words, for editors: a value as they would type it, a condition as a sentence
// ("10 % of visitors · language fr → 'Bonjour'") and the summary a publish records.
import type { ConditionalValue, ConditionRules, ParameterSetting } from '#storage/port/config.ts'
import { type ParameterKey, parameters } from './parameters.ts'

const longValue = 60

export function describeValue(key: ParameterKey, value: unknown): string {
	const { type } = parameters[key]
	if (type === 'string') return `'${String(value)}'`
	if (type === 'boolean') return value ? 'yes' : 'no'
	if (type === 'number') return String(value)
	const json = JSON.stringify(value) ?? 'nothing'
	return json.length > longValue ? `${json.slice(0, longValue - 1)}…` : json
}

/** An instant as editors enter it: UTC, to the minute (seconds when there are some). */
export function describeInstant(iso: string): string {
	const text = new Date(iso).toISOString()
	return `${text.endsWith(':00.000Z') ? text.slice(0, 16) : text.slice(0, 19)} UTC`.replace(
		'T',
		' ',
	)
}

export function describeRules(rules: ConditionRules): string {
	const parts: string[] = []
	if (rules.percent !== undefined) parts.push(`${rules.percent} % of visitors`)
	if (rules.languages?.length)
		parts.push(
			`${rules.languages.length > 1 ? 'languages' : 'language'} ${rules.languages.join(', ')}`,
		)
	if (rules.devices?.length) parts.push(rules.devices.join(' or '))
	if (rules.from) parts.push(`from ${describeInstant(rules.from)}`)
	if (rules.until) parts.push(`until ${describeInstant(rules.until)}`)
	return parts.length > 0 ? parts.join(' · ') : 'every visitor'
}

export function describeCondition(key: ParameterKey, condition: ConditionalValue): string {
	return `${describeRules(condition.rules)} → ${describeValue(key, condition.value)}`
}

export function describeServerDefault(key: ParameterKey, setting: ParameterSetting | undefined) {
	return setting && 'serverDefault' in setting && setting.serverDefault !== undefined
		? describeValue(key, setting.serverDefault)
		: 'in-app default'
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** What publishing `after` in place of `before` changes for one parameter, in words. */
export function summarizeChange(
	key: ParameterKey,
	before: ParameterSetting | undefined,
	after: ParameterSetting,
): string {
	const changes: string[] = []
	// Unset, the in-app default applies: say which value that is.
	const inApp = `${describeValue(key, parameters[key].defaultValue)} (in-app default)`
	const serverDefault = (setting: ParameterSetting | undefined) =>
		setting?.serverDefault === undefined ? inApp : describeValue(key, setting.serverDefault)
	const from = serverDefault(before)
	const to = serverDefault(after)
	if (from !== to || !same(before?.serverDefault, after.serverDefault))
		changes.push(`server default ${from} → ${to}`)
	const old = before?.conditions ?? []
	const now = after.conditions
	if (now.length > old.length) changes.push(`${plural(now.length - old.length, 'condition')} added`)
	if (now.length < old.length)
		changes.push(`${plural(old.length - now.length, 'condition')} removed`)
	const kept = Math.min(old.length, now.length)
	const changed = Array.from({ length: kept }, (_, i) => i).filter((i) => !same(old[i], now[i]))
	if (changed.length > 0)
		changes.push(
			`${changed.length === 1 ? 'condition' : 'conditions'} ${changed.map((i) => i + 1).join(', ')} changed`,
		)
	return `${key}: ${changes.length > 0 ? changes.join('; ') : 'no change'}`
}
