import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { interfaceLocales } from '#app/lib/i18n.ts'

/** A PO file's entries: each message id (with its plural) and its translations. */
function entries(path: string) {
	const text = readFileSync(path, 'utf8')
	return text
		.split(/\n\n+/)
		.filter((block) => /^msgid /m.test(block) && !/^#~/m.test(block))
		.map((block) => {
			const strings = (key: string) =>
				[...block.matchAll(new RegExp(`^${key} ((?:"(?:[^"\\\\]|\\\\.)*"\\n?)+)`, 'gm'))].map(
					(match) =>
						(match[1] ?? '')
							.split('\n')
							.filter(Boolean)
							.map((line) => JSON.parse(line) as string)
							.join(''),
				)
			const id = strings('msgid')[0] ?? ''
			const translations = [...strings('msgstr'), ...strings('msgstr\\[\\d\\]')]
			return { id, translations }
		})
		.filter((entry) => entry.id !== '')
}

const placeholders = (text: string) =>
	[...text.matchAll(/\{(\w+)\}|<(\d+)>/g)].map((m) => m[0]).sort()

describe('the interface’s catalogues', () => {
	for (const area of ['public', 'forms', 'mail', 'staff']) {
		const english = entries(`app/locales/en/${area}.po`)
		for (const locale of interfaceLocales.filter((code) => code !== 'en')) {
			it(`${locale}/${area}.po translates every message, keeping its placeholders`, () => {
				const translated = new Map(
					entries(`app/locales/${locale}/${area}.po`).map((entry) => [entry.id, entry]),
				)
				expect(english.length).toBeGreaterThan(10)
				const missing = english
					.filter((entry) => !translated.get(entry.id)?.translations.some(Boolean))
					.map((entry) => entry.id)
				expect(missing).toEqual([])
				// A placeholder lost or renamed would show a blank, or {name}, to the reader.
				const broken = english.filter((entry) => {
					const translation = translated.get(entry.id)?.translations[0] ?? ''
					if (/\{\w+, (plural|select)/.test(entry.id)) return false
					return placeholders(translation).join() !== placeholders(entry.id).join()
				})
				expect(broken.map((entry) => entry.id)).toEqual([])
			})
		}
	}
})
