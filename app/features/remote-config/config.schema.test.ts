import { describe, expect, it } from 'vitest'
import { fieldErrors } from '#app/lib/field-errors.ts'
import type { ConditionRules } from '#storage/port/config.ts'
import { parseConfigDocument } from './config.schema.ts'

function errorsOf(input: unknown) {
	const parsed = parseConfigDocument(input)
	if (parsed.success) throw new Error('expected the document to be refused')
	return fieldErrors(parsed.error)
}

const withRules = (rules: ConditionRules | Record<string, unknown>) => ({
	parameters: { banner_message: { conditions: [{ rules, value: 'Bonjour' }] } },
})

describe('configDocumentSchema', () => {
	it('takes an empty document and a full one, unchanged', () => {
		expect(parseConfigDocument({ parameters: {} })).toEqual({
			success: true,
			data: { parameters: {} },
		})
		const full = {
			parameters: {
				banner_message: {
					serverDefault: 'Hello',
					conditions: [
						{
							rules: {
								percent: 12.5,
								languages: ['fr', 'pt'],
								devices: ['mobile'],
								from: '2026-05-01T09:00:00.000Z',
								until: '2026-05-02T09:00:00+02:00',
							},
							value: 'Bonjour',
						},
						{ rules: {}, value: '' },
					],
				},
				home_latest_count: { serverDefault: 0, conditions: [] },
				push_prompt_enabled: { conditions: [{ rules: { percent: 100 }, value: false }] },
				contact_form_enabled: { serverDefault: false, conditions: [] },
				articles_page_size: { serverDefault: 50, conditions: [] },
			},
		}
		expect(parseConfigDocument(full)).toEqual({ success: true, data: full })
	})

	it("checks each value against its parameter's declaration, at the value's own path", () => {
		expect(
			errorsOf({
				parameters: {
					home_latest_count: {
						serverDefault: 99,
						conditions: [
							{ rules: {}, value: 2.5 },
							{ rules: {}, value: '5' },
						],
					},
					banner_message: { serverDefault: 'x'.repeat(281), conditions: [] },
					push_prompt_enabled: { serverDefault: 'yes', conditions: [] },
				},
			}),
		).toEqual({
			'parameters.home_latest_count.serverDefault': ['Must be 12 or less.'],
			'parameters.home_latest_count.conditions.0.value': ['Must be a whole number.'],
			'parameters.home_latest_count.conditions.1.value': [expect.any(String)],
			'parameters.banner_message.serverDefault': [expect.stringMatching(/At most 280 characters/)],
			'parameters.push_prompt_enabled.serverDefault': [expect.any(String)],
		})
	})

	it('refuses a condition without a value', () => {
		expect(
			errorsOf({ parameters: { banner_message: { conditions: [{ rules: {} }] } } }),
		).toHaveProperty(['parameters.banner_message.conditions.0.value'])
	})

	it('takes percentages above 0, up to 100, with two decimals at most', () => {
		for (const percent of [0.01, 10, 12.5, 33.33, 100]) {
			expect(parseConfigDocument(withRules({ percent })).success, String(percent)).toBe(true)
		}
		const path = 'parameters.banner_message.conditions.0.rules.percent'
		expect(errorsOf(withRules({ percent: 0 }))).toEqual({ [path]: ['Must be more than 0 %.'] })
		expect(errorsOf(withRules({ percent: -5 }))).toEqual({ [path]: ['Must be more than 0 %.'] })
		expect(errorsOf(withRules({ percent: 100.5 }))).toEqual({ [path]: ['Must be 100 % or less.'] })
		expect(errorsOf(withRules({ percent: 12.345 }))).toEqual({
			[path]: ['At most two decimals, such as 12.5 or 0.25.'],
		})
		expect(errorsOf(withRules({ percent: '10' }))).toHaveProperty([path])
	})

	it('takes lower-case language codes, each once', () => {
		expect(parseConfigDocument(withRules({ languages: ['fr', 'ast'] })).success).toBe(true)
		const path = 'parameters.banner_message.conditions.0.rules.languages'
		for (const wrong of ['FR', 'fr-FR', 'f', 'fren', '']) {
			expect(errorsOf(withRules({ languages: [wrong] })), wrong).toHaveProperty([`${path}.0`])
		}
		expect(errorsOf(withRules({ languages: ['fr', 'de', 'fr'] }))).toEqual({
			[path]: ['Name each language once.'],
		})
		expect(errorsOf(withRules({ languages: [] }))).toHaveProperty([path])
	})

	it('takes the device classes only, each once', () => {
		expect(parseConfigDocument(withRules({ devices: ['mobile', 'desktop'] })).success).toBe(true)
		const path = 'parameters.banner_message.conditions.0.rules.devices'
		expect(errorsOf(withRules({ devices: ['watch'] }))).toHaveProperty([`${path}.0`])
		expect(errorsOf(withRules({ devices: ['tablet', 'tablet'] }))).toEqual({
			[path]: ['Name each device once.'],
		})
	})

	it('takes ISO instants with from before until', () => {
		const path = 'parameters.banner_message.conditions.0.rules'
		expect(parseConfigDocument(withRules({ from: '2026-05-01T00:00:00Z' })).success).toBe(true)
		expect(errorsOf(withRules({ from: '2026-05-01' }))).toHaveProperty([`${path}.from`])
		expect(errorsOf(withRules({ until: 'tomorrow' }))).toHaveProperty([`${path}.until`])
		expect(
			errorsOf(withRules({ from: '2026-05-02T00:00:00Z', until: '2026-05-01T00:00:00Z' })),
		).toEqual({ [`${path}.until`]: ['Must be after the start ("from").'] })
		expect(
			errorsOf(withRules({ from: '2026-05-01T00:00:00Z', until: '2026-05-01T02:00:00+02:00' })),
		).toHaveProperty([`${path}.until`])
	})

	it('refuses unknown parameters and unknown rules', () => {
		expect(errorsOf({ parameters: { dark_mode: { conditions: [] } } })).toEqual({
			parameters: ['No parameter is called dark_mode: it may have been removed from the code.'],
		})
		expect(errorsOf(withRules({ country: 'FR' }))).toHaveProperty([
			'parameters.banner_message.conditions.0.rules',
		])
		expect(errorsOf({})).toHaveProperty(['parameters'])
	})
})
