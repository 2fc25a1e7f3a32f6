// The service worker at /sw.js: shows the notice of a new article when a push message arrives,
// opens the article when its notice is clicked, and keeps the subscription Canopy holds current
// when the browser replaces it. Built on its own into one classic script (vite.config.ts's
// serviceWorker plugin), type-checked with tsconfig.sw.json (the WebWorker library).
import { clickedUrl, noticeFor, tabShowing } from './notice.ts'
import { fetchPublicKey, sendSubscription, withdrawSubscription } from './push-api.ts'

declare const self: ServiceWorkerGlobalScope

// A new version takes over at once: it only handles notifications, so there is no cache or
// page state to keep consistent with the one it replaces.
self.addEventListener('install', () => {
	void self.skipWaiting()
})
self.addEventListener('activate', (event) => {
	event.waitUntil(self.clients.claim())
})

self.addEventListener('push', (event) => {
	const notice = noticeFor(event.data?.text(), self.location.origin)
	event.waitUntil(self.registration.showNotification(notice.title, notice.options))
})

self.addEventListener('notificationclick', (event) => {
	event.notification.close()
	const url = clickedUrl(event.notification.data, self.location.origin)
	event.waitUntil(
		(async () => {
			const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
			const open = tabShowing(tabs, url)
			if (open) await open.focus()
			else await self.clients.openWindow(url)
		})(),
	)
})

/** The event browsers fire when the push service replaced or ended a subscription. */
interface SubscriptionChangeEvent extends ExtendableEvent {
	readonly oldSubscription: PushSubscription | null
	readonly newSubscription: PushSubscription | null
}

/**
 * Subscribes again (with the site's current key) unless the browser already did, sends the new
 * subscription to Canopy and withdraws the old one, so notices go to where they will arrive.
 */
async function renew(change: SubscriptionChangeEvent): Promise<void> {
	const fresh =
		change.newSubscription ??
		(await self.registration.pushManager.subscribe({
			userVisibleOnly: true,
			applicationServerKey: await fetchPublicKey(),
		}))
	await sendSubscription(fresh)
	const old = change.oldSubscription
	if (old && old.endpoint !== fresh.endpoint) await withdrawSubscription(old.endpoint)
}

self.addEventListener('pushsubscriptionchange', (event) => {
	event.waitUntil(renew(event as SubscriptionChangeEvent))
})
