import { globSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { formMessages as staffMessages } from '#app/features/staff/form-messages.ts'
import { formMessages as publicMessages } from './form-messages.ts'

// The lists translate messages by their English text: one changed where it is written, and
// not in the list, would silently show in English in every language.
describe('the form messages registered for translation', () => {
	const sources = globSync('app/**/*.ts')
		.filter((file) => !/\.test\.|form-messages\.ts$/.test(file))
		.map((file) => readFileSync(file, 'utf8').replaceAll("\\'", "'"))
		.join('\n')

	it.each([
		['public', publicMessages],
		['staff', staffMessages],
	])('%s: each is still written, word for word, in the code', (_, messages) => {
		expect(messages.length).toBeGreaterThan(10)
		const missing = messages.map((message) => message.id).filter((id) => !sources.includes(id))
		expect(missing).toEqual([])
	})
})
