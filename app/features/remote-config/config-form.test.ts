import { describe, expect, it } from 'vitest'
import type { ParameterSetting } from '#storage/port/config.ts'
import {
	applyIntent,
	fieldsToSetting,
	formErrors,
	readFields,
	readIntent,
	settingToFields,
} from './config-form.ts'
import { describeCondition, summarizeChange } from './describe.ts'

function form(entries: [string, string][]): FormData {
	const data = new FormData()
	for (const [name, value] of entries) data.append(name, value)
	return data
}

const banner: ParameterSetting = {
	serverDefault: 'Hello',
	conditions: [
		{
			rules: {
				percent: 10,
				languages: ['fr'],
				devices: ['mobile', 'tablet'],
				from: '2026-05-01T09:00:00.000Z',
				until: '2026-05-02T09:00:30.000Z',
			},
			value: 'Bonjour',
		},
		{ rules: {}, value: '' },
	],
}

describe('the parameter form', () => {
	it('shows a setting in its controls and reads it back unchanged', () => {
		const fields = settingToFields('banner_message', banner)
		expect(fields.conditions[0]).toEqual({
			percent: '10',
			languages: 'fr',
			devices: ['mobile', 'tablet'],
			from: '2026-05-01T09:00',
			until: '2026-05-02T09:00:30',
			value: 'Bonjour',
		})
		expect(fieldsToSetting('banner_message', fields)).toEqual({ setting: banner, errors: {} })
	})

	it('reads posted controls in row order, lower-casing languages and times as UTC', () => {
		const fields = readFields(
			form([
				['serverDefaultMode', 'app'],
				['serverDefault', '7'],
				['conditions.1.value', '4'],
				['conditions.0.percent', '12.5'],
				['conditions.0.languages', ' FR, pt ,'],
				['conditions.0.devices', 'desktop'],
				['conditions.0.devices', 'watch'],
				['conditions.0.from', '2026-05-01T23:30'],
				['conditions.0.value', '2'],
			]),
		)
		expect(fields.useServerDefault).toBe(false)
		expect(fields.conditions.map((condition) => condition.value)).toEqual(['2', '4'])
		expect(fieldsToSetting('home_latest_count', fields)).toEqual({
			setting: {
				conditions: [
					{
						rules: {
							percent: 12.5,
							languages: ['fr', 'pt'],
							devices: ['desktop'],
							from: '2026-05-01T23:30:00.000Z',
						},
						value: 2,
					},
					{ rules: {}, value: 4 },
				],
			},
			errors: {},
		})
	})

	it('says which control holds text that is no value', () => {
		const fields = settingToFields('home_latest_count', undefined)
		fields.useServerDefault = true
		fields.serverDefault = 'three'
		fields.conditions = [
			{ percent: 'ten', languages: '', devices: [], from: 'soon', until: '', value: '' },
		]
		expect(fieldsToSetting('home_latest_count', fields).errors).toEqual({
			serverDefault: ['Enter a number, such as 3.'],
			'conditions.0.percent': ['Enter a percentage, such as 10.'],
			'conditions.0.from': ['Enter a date and time (UTC), such as 2026-05-01T09:00.'],
			'conditions.0.value': ['Enter a number, such as 3.'],
		})
		const yesNo = settingToFields('push_prompt_enabled', undefined)
		expect(yesNo.serverDefault).toBe('true')
		expect(
			fieldsToSetting('push_prompt_enabled', {
				...yesNo,
				useServerDefault: true,
				serverDefault: 'maybe',
			}).errors,
		).toEqual({ serverDefault: ['Choose yes or no.'] })
	})

	it('adds, removes and moves rows', () => {
		const fields = settingToFields('banner_message', banner)
		expect(readIntent(form([['intent', 'add']]))).toEqual({ kind: 'add' })
		expect(readIntent(form([['intent', 'down-0']]))).toEqual({ kind: 'down', index: 0 })
		expect(readIntent(form([]))).toEqual({ kind: 'publish' })
		const added = applyIntent('banner_message', fields, { kind: 'add' })
		expect(added.conditions).toHaveLength(3)
		expect(added.conditions[2]?.value).toBe('')
		const moved = applyIntent('banner_message', fields, { kind: 'down', index: 0 })
		expect(moved.conditions.map((condition) => condition.value)).toEqual(['', 'Bonjour'])
		expect(applyIntent('banner_message', fields, { kind: 'up', index: 0 })).toBe(fields)
		const removed = applyIntent('banner_message', fields, { kind: 'remove', index: 0 })
		expect(removed.conditions.map((condition) => condition.value)).toEqual([''])
	})

	it("puts the document's messages under the controls' names", () => {
		expect(
			formErrors('banner_message', {
				'parameters.banner_message.serverDefault': ['a'],
				'parameters.banner_message.conditions.1.rules.languages.0': ['b'],
				'parameters.banner_message.conditions.1.rules.until': ['c'],
				'parameters.banner_message.conditions.0.value': ['d'],
				parameters: ['e'],
			}),
		).toEqual({
			serverDefault: ['a'],
			'conditions.1.languages': ['b'],
			'conditions.1.until': ['c'],
			'conditions.0.value': ['d'],
			form: ['e'],
		})
	})
})

describe('configuration in words', () => {
	it('says a condition as a sentence', () => {
		expect(
			describeCondition('banner_message', {
				rules: { percent: 10, languages: ['fr'] },
				value: 'Bonjour',
			}),
		).toBe("10 % of visitors · language fr → 'Bonjour'")
		expect(describeCondition('push_prompt_enabled', { rules: {}, value: false })).toBe(
			'every visitor → no',
		)
		expect(
			describeCondition('home_latest_count', {
				rules: { devices: ['mobile', 'tablet'], until: '2026-06-01T00:00:00.000Z' },
				value: 6,
			}),
		).toBe('mobile or tablet · until 2026-06-01 00:00 UTC → 6')
	})

	it('summarises what a publish changes', () => {
		expect(
			summarizeChange('banner_message', undefined, {
				serverDefault: 'Hello',
				conditions: [{ rules: {}, value: 'x' }],
			}),
		).toBe("banner_message: server default '' (in-app default) → 'Hello'; 1 condition added")
		expect(summarizeChange('banner_message', banner, { conditions: [] })).toBe(
			"banner_message: server default 'Hello' → '' (in-app default); 2 conditions removed",
		)
		expect(
			summarizeChange('banner_message', banner, {
				...banner,
				conditions: [
					banner.conditions[1] ?? { rules: {}, value: '' },
					banner.conditions[0] ?? { rules: {}, value: '' },
				],
			}),
		).toBe('banner_message: conditions 1, 2 changed')
		expect(summarizeChange('banner_message', banner, banner)).toBe('banner_message: no change')
	})
})
