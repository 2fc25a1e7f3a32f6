// A message in more than one catalogue (the header's "Contact" and the contact page's, the site's
// tagline in the public pages and in settings) must read the same in each: the server holds every
// catalogue at once and a browser only some, so two translations of one message would render
// differently on each side (React's hydration error, and a heading that changes under the reader).
import type { Messages } from '@lingui/core'
import { describe, expect, it } from 'vitest'
import { interfaceLocales } from './i18n.ts'

const catalogues = import.meta.glob<Messages>('../locales/*/*.po', {
	eager: true,
	import: 'messages',
})

describe('the interface catalogues', () => {
	it.each(interfaceLocales.filter((locale) => locale !== 'en'))(
		'say each message one way in %s, whichever catalogue it is in',
		(locale) => {
			const translations = new Map<string, Map<string, string>>()
			for (const [path, messages] of Object.entries(catalogues)) {
				if (!path.includes(`/locales/${locale}/`)) continue
				const catalogue = /([a-z]+)\.po$/.exec(path)?.[1] ?? path
				for (const [id, message] of Object.entries(messages)) {
					const seen = translations.get(id) ?? new Map<string, string>()
					seen.set(catalogue, JSON.stringify(message))
					translations.set(id, seen)
				}
			}
			expect(translations.size).toBeGreaterThan(100)
			const differing = [...translations]
				.filter(([, seen]) => new Set(seen.values()).size > 1)
				.map(([id, seen]) => ({ id, ...Object.fromEntries(seen) }))
			expect(differing).toEqual([])
		},
	)
})
