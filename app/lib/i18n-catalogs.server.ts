// Every language's catalogues, compiled from app/locales/*/*.po by Lingui's Vite plugin, held by
// the server from its start: each request renders in its own language (app/lib/i18n.ts).
import type { Messages } from '@lingui/core'
import { addMessages, isInterfaceLocale } from './i18n.ts'

const catalogues = import.meta.glob<Messages>('../locales/*/*.po', {
	eager: true,
	import: 'messages',
})

for (const [path, messages] of Object.entries(catalogues)) {
	const locale = /locales\/([^/]+)\//.exec(path)?.[1]
	if (isInterfaceLocale(locale)) addMessages(locale, messages)
}
