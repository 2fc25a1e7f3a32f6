import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'
import { isInterfaceLocale } from './lib/i18n.ts'
import { areasOf, loadCatalogue } from './lib/i18n-catalogs.client.ts'

// A revalidation that a newer one (or a navigation) cancels can leave React Router's own promise
// rejected with an AbortError nobody awaits (remix-run/react-router#14203): nothing failed, the
// newer request carries on. Only that one error is kept out of the console; any other stays.
window.addEventListener('unhandledrejection', (event) => {
	if (event.reason instanceof DOMException && event.reason.name === 'AbortError') {
		event.preventDefault()
	}
})

// The interface's messages in the language the server rendered in (root.tsx), before hydrating:
// the first render must say what the server's did. The staff area's only where it is open. On an
// article whose language the interface follows, the reader's own language's too: the page's
// title and description are drawn in it (rootI18n), and were its message ids without them.
const { locale, readerLocale } = document.documentElement.dataset
const locales = new Set([locale, readerLocale].filter(isInterfaceLocale))
await Promise.all(
	[...locales].flatMap((code) =>
		areasOf(window.location.pathname).map((area) => loadCatalogue(code, area)),
	),
)

startTransition(() => {
	hydrateRoot(
		document,
		<StrictMode>
			<HydratedRouter />
		</StrictMode>,
	)
})
