// The announcement editors set in banner_message (shown while banner_enabled, leading to
// banner_link when there is one), above every public page's content. A reader
// who dismisses it does not see that message again (a new message shows again): the browser
// keeps a hash of the dismissed message. The message is rendered as text, never as markup.
import { Trans, useLingui } from '@lingui/react/macro'
import { useLayoutEffect, useSyncExternalStore } from 'react'
import { useNonce } from '#app/lib/nonce.tsx'
import { useConfigValue } from './use-config.ts'

const dismissedKey = 'canopy.banner.dismissed'

/** FNV-1a (32 bits) in base 36: names a message in storage and markup without repeating it. */
export function messageHash(message: string): string {
	let hash = 0x811c9dc5
	for (let index = 0; index < message.length; index++) {
		hash = Math.imul(hash ^ message.charCodeAt(index), 0x01000193)
	}
	return (hash >>> 0).toString(36)
}

// Where storage is off, a dismissal still holds for the rest of the visit.
let dismissedHere = ''
const listeners = new Set<() => void>()

function readDismissed(): string {
	try {
		return localStorage.getItem(dismissedKey) ?? dismissedHere
	} catch {
		return dismissedHere
	}
}

function subscribeDismissed(listener: () => void): () => void {
	listeners.add(listener)
	// A dismissal in another tab hides the banner here too.
	addEventListener('storage', listener)
	return () => {
		listeners.delete(listener)
		removeEventListener('storage', listener)
	}
}

function dismiss(hash: string): void {
	dismissedHere = hash
	try {
		localStorage.setItem(dismissedKey, hash)
	} catch {
		// Storage off: the banner comes back on the next page load.
	}
	for (const listener of listeners) listener()
	// The button is gone: the reader goes on from the start of the page's content.
	document.getElementById('main')?.focus()
}

/**
 * For <head>: before the first paint, marks <html data-banner-dismissed> when this reader has
 * dismissed the message the server rendered, so app.css hides the banner without a flash while
 * the page's scripts load. SiteBanner takes over (and removes the mark) once hydrated. Rendered
 * on every page, empty where there is no message: React warns of a <script> it creates in the
 * browser (a navigation that adds one), not of one it hydrates or updates.
 */
export function BannerDismissedScript({ message }: { message: string }) {
	const nonce = useNonce()
	const script = message
		? `try{var h=${JSON.stringify(messageHash(message))};if(localStorage.getItem(${JSON.stringify(dismissedKey)})===h)document.documentElement.setAttribute('data-banner-dismissed',h)}catch(e){}`
		: ''
	// biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant script; the message only reaches it as a hash
	return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} />
}

/** The announcement readers see: its text while it is switched on, else none. */
export function bannerMessage(values: { banner_enabled: boolean; banner_message: string }): string {
	return values.banner_enabled ? values.banner_message : ''
}

export function SiteBanner() {
	const { t } = useLingui()
	const message = bannerMessage({
		banner_enabled: useConfigValue('banner_enabled'),
		banner_message: useConfigValue('banner_message'),
	})
	const link = useConfigValue('banner_link')
	// null while hydrating: the server's markup is kept, and the mark hides it if dismissed.
	const dismissed = useSyncExternalStore(subscribeDismissed, readDismissed, () => null)
	useLayoutEffect(() => {
		if (dismissed !== null) document.documentElement.removeAttribute('data-banner-dismissed')
	}, [dismissed])
	if (!message) return null
	const hash = messageHash(message)
	if (dismissed === hash) return null
	return (
		<section className="site-banner" aria-label={t`Announcement`}>
			{/* In the direction of its own words: English news on an Arabic page ends at the right. */}
			<p dir="auto">{link ? <a href={link}>{message}</a> : message}</p>
			<button
				type="button"
				className="site-banner-dismiss"
				aria-label={t`Dismiss announcement`}
				onClick={() => dismiss(hash)}
			>
				<Trans>Dismiss</Trans>
			</button>
		</section>
	)
}
