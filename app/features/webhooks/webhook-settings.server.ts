// The webhooks' one setting: whether endpoints may be on this machine or a private network
// (webhook-address.server.ts). Off unless an admin turns it on.
import type { Storage } from '#storage/port/storage.ts'

const allowPrivateKey = 'webhooks.allow_private_addresses'

export async function allowsPrivateAddresses(storage: Storage): Promise<boolean> {
	return (await storage.settings.all())[allowPrivateKey] === 'true'
}

export async function setAllowsPrivateAddresses(storage: Storage, allow: boolean): Promise<void> {
	await storage.settings.set({ [allowPrivateKey]: allow ? 'true' : 'false' })
}
