// The VAPID key pair (RFC 8292) that signs every push request, so a push service knows each one
// comes from the site its browser subscribed to: the public key is given to the browser when it
// subscribes (GET /api/push/key), and a subscription only takes messages signed with its pair.
// Canopy makes a pair at first start and keeps it in the database, so every instance signs with
// the same one and it survives restarts; VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY replace it
// (server/env.ts checks them). Changing the pair leaves every existing subscription unusable
// until its browser subscribes again with the new public key.
import webPush from 'web-push'
import { getSiteSettings } from '#app/features/site/site-settings.server.ts'
import { defaultSiteSettings } from '#app/features/site/site-settings.ts'
import type { Storage } from '#storage/port/storage.ts'

/** A VAPID key pair (RFC 8292) in URL-safe base64 without padding, as web-push takes it. */
export interface VapidKeys {
	/** The P-256 public key: 65 bytes, uncompressed (0x04, x, y). */
	publicKey: string
	/** The P-256 private key: 32 bytes. */
	privateKey: string
}

const settingKey = 'push.vapidKeys'

function parseStored(value: string): VapidKeys {
	const parsed = JSON.parse(value) as Partial<VapidKeys>
	if (typeof parsed.publicKey !== 'string' || typeof parsed.privateKey !== 'string')
		throw new Error(`The stored setting ${settingKey} is not a VAPID key pair.`)
	return { publicKey: parsed.publicKey, privateKey: parsed.privateKey }
}

/** The configured pair, or the one kept in the database (made now if there is none yet). */
export async function loadVapidKeys(
	storage: Storage,
	configured: VapidKeys | null,
): Promise<VapidKeys> {
	if (configured) return configured
	// Both keys in one setting: instances starting together keep one whole pair, never one's
	// public key with the other's private key.
	const stored = await storage.settings.setIfAbsent(
		settingKey,
		JSON.stringify(webPush.generateVAPIDKeys()),
	)
	return parseStored(stored)
}

/**
 * Who push services can contact about this site's messages: VAPID_SUBJECT; else the contact
 * address an editor set in the site settings; else webmaster at the site's host. Read at send
 * time, as the contact address may change while Canopy runs. The placeholder address of a new
 * site does not count as set: no one reads it.
 */
export async function vapidSubject(
	storage: Storage,
	config: { vapidSubject: string | null; siteUrl: string },
): Promise<string> {
	if (config.vapidSubject) return config.vapidSubject
	const { contactEmail } = await getSiteSettings(storage)
	if (contactEmail && contactEmail !== defaultSiteSettings.contactEmail)
		return `mailto:${contactEmail}`
	return `mailto:webmaster@${new URL(config.siteUrl).hostname}`
}
