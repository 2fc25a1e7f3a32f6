// What the reader's browser does for "Notify me of new articles": reads whether notices are on,
// subscribes (asking for permission only then), unsubscribes, and keeps the subscription Canopy
// holds current. Loaded only after the page is up (notify-slot.tsx), never as first-view code.
import { fetchPublicKey, sendSubscription, withdrawSubscription } from './push-api.ts'

/** on, off, blocked by the browser (permission denied), or not possible in this browser. */
export type NotifyState = 'on' | 'off' | 'blocked' | 'unsupported'

const serviceWorkerUrl = '/sw.js'
/** What was last sent to Canopy, so the page knows when to send it again. */
const sentKey = 'canopy.push.sent'
/**
 * The subscription is sent again after a week, as the hosted messaging library Canopy replaces
 * did with its tokens: Canopy learns the browser still wants notices (refreshed_at), and a
 * subscription the browser changed without telling the service worker is replaced.
 */
export const resendAfterMs = 7 * 24 * 60 * 60 * 1000

export interface SentRecord {
	endpoint: string
	/** The site key it was made with, in URL-safe base64. */
	key: string
	at: number
}

export function pushSupported(): boolean {
	return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
}

const base64url = (bytes: ArrayBuffer | Uint8Array) =>
	btoa(String.fromCharCode(...new Uint8Array(bytes)))
		.replace(/\+/g, '-')
		.replace(/\//g, '_')
		.replace(/=+$/, '')

function recall(): SentRecord | undefined {
	try {
		const value: unknown = JSON.parse(localStorage.getItem(sentKey) ?? 'null')
		return value && typeof value === 'object' ? (value as SentRecord) : undefined
	} catch {
		return undefined
	}
}

function remember(record: SentRecord | undefined): void {
	try {
		if (record) localStorage.setItem(sentKey, JSON.stringify(record))
		else localStorage.removeItem(sentKey)
	} catch {
		// Storage may be off (private modes): the subscription is then re-sent on each visit.
	}
}

async function currentSubscription(): Promise<PushSubscription | null> {
	const registration = await navigator.serviceWorker.getRegistration('/')
	return (await registration?.pushManager.getSubscription()) ?? null
}

export async function readState(): Promise<NotifyState> {
	if (!pushSupported()) return 'unsupported'
	if (Notification.permission === 'denied') return 'blocked'
	if (Notification.permission !== 'granted') return 'off'
	return (await currentSubscription()) ? 'on' : 'off'
}

/** The key a subscription was made with: the browser's record of it, else what was sent. */
function subscribedKey(subscription: PushSubscription): string | undefined {
	const key = subscription.options.applicationServerKey
	return key ? base64url(key) : recall()?.key
}

async function subscribe(registration: ServiceWorkerRegistration, key: Uint8Array<ArrayBuffer>) {
	const subscription = await registration.pushManager.subscribe({
		userVisibleOnly: true,
		applicationServerKey: key,
	})
	try {
		await sendSubscription(subscription)
	} catch (error) {
		// Canopy refused or could not be reached: a subscription it does not know would look "on"
		// here and never receive anything.
		await subscription.unsubscribe().catch(() => {})
		throw error
	}
	remember({ endpoint: subscription.endpoint, key: base64url(key), at: Date.now() })
	return subscription
}

/** Asks for permission (the reader has just pressed the button), then subscribes. */
export async function turnOn(): Promise<NotifyState> {
	const permission = await Notification.requestPermission()
	if (permission === 'denied') return 'blocked'
	if (permission !== 'granted') return 'off'
	await navigator.serviceWorker.register(serviceWorkerUrl, { scope: '/', updateViaCache: 'none' })
	const registration = await navigator.serviceWorker.ready
	const key = await fetchPublicKey()
	const existing = await registration.pushManager.getSubscription()
	if (existing && subscribedKey(existing) === base64url(key)) {
		await sendSubscription(existing)
		remember({ endpoint: existing.endpoint, key: base64url(key), at: Date.now() })
	} else {
		await existing?.unsubscribe()
		await subscribe(registration, key)
	}
	return 'on'
}

/** Withdraws the subscription from Canopy, then from the browser. */
export async function turnOff(): Promise<NotifyState> {
	const subscription = await currentSubscription()
	if (subscription) {
		await withdrawSubscription(subscription.endpoint)
		await subscription.unsubscribe()
	}
	remember(undefined)
	return 'off'
}

export type Freshness = 'current' | 'resend' | 'resubscribe'

/**
 * What a subscribed browser should do on a visit: subscribe again when the site's key changed
 * (the old subscription takes nothing signed with the new key), send the subscription again when
 * it was never sent, has changed, or was last sent a week ago or more; otherwise nothing.
 */
export function freshness(
	sent: SentRecord | undefined,
	subscription: { endpoint: string; key: string | undefined },
	siteKey: string,
	now: number,
): Freshness {
	if (subscription.key !== undefined && subscription.key !== siteKey) return 'resubscribe'
	if (!sent || sent.endpoint !== subscription.endpoint || now - sent.at >= resendAfterMs)
		return 'resend'
	return 'current'
}

let kept: Promise<void> | undefined

/** Once per page load, for a browser with notices on: does what `freshness` says. */
export function keepFresh(): Promise<void> {
	kept ??= (async () => {
		const registration = await navigator.serviceWorker.getRegistration('/')
		const subscription = await registration?.pushManager.getSubscription()
		if (!registration || !subscription) return
		const key = await fetchPublicKey()
		const siteKey = base64url(key)
		const action = freshness(
			recall(),
			{ endpoint: subscription.endpoint, key: subscribedKey(subscription) },
			siteKey,
			Date.now(),
		)
		if (action === 'resend') {
			await sendSubscription(subscription)
			remember({ endpoint: subscription.endpoint, key: siteKey, at: Date.now() })
		} else if (action === 'resubscribe') {
			const old = subscription.endpoint
			await subscription.unsubscribe()
			const fresh = await subscribe(registration, key)
			if (fresh.endpoint !== old) await withdrawSubscription(old).catch(() => {})
		}
	})().catch(() => {
		// Offline or refused: tried again on the next page load.
		kept = undefined
	})
	return kept
}
