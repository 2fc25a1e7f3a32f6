import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'

// A revalidation that a newer one (or a navigation) cancels can leave React Router's own promise
// rejected with an AbortError nobody awaits (remix-run/react-router#14203): nothing failed, the
// newer request carries on. Only that one error is kept out of the console; any other stays.
window.addEventListener('unhandledrejection', (event) => {
	if (event.reason instanceof DOMException && event.reason.name === 'AbortError') {
		event.preventDefault()
	}
})

startTransition(() => {
	hydrateRoot(
		document,
		<StrictMode>
			<HydratedRouter />
		</StrictMode>,
	)
})
