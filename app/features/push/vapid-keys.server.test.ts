import { createECDH } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { saveSiteSettings } from '#app/features/site/site-settings.server.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'
import { loadVapidKeys, vapidSubject } from './vapid-keys.server.ts'

describe.each(databases)('VAPID keys on $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))

	it('makes one pair for every instance starting together, and keeps it', async () => {
		// PostgreSQL: two pools, as two instances would have. SQLite: one handle per process.
		const second = database.dialect === 'postgres' ? database.open() : storage
		try {
			const [one, two] = await Promise.all([
				loadVapidKeys(storage, null),
				loadVapidKeys(second, null),
			])
			expect(two).toEqual(one)
		} finally {
			if (second !== storage) await second.close()
		}
		const pair = await loadVapidKeys(storage, null)
		const ecdh = createECDH('prime256v1')
		ecdh.setPrivateKey(Buffer.from(pair.privateKey, 'base64url'))
		expect(ecdh.getPublicKey().toString('base64url')).toBe(pair.publicKey)
		expect(await loadVapidKeys(storage, null)).toEqual(pair)
	})

	it('uses a configured pair as it is, storing nothing', async () => {
		const configured = { publicKey: 'B-configured', privateKey: 'private' }
		expect(await loadVapidKeys(storage, configured)).toBe(configured)
		expect(Object.keys(await storage.settings.all())).not.toContain('push.vapidKeys')
	})

	it('names VAPID_SUBJECT, else the contact address an editor set, else webmaster at the site', async () => {
		const siteUrl = 'https://news.example.org:8443'
		expect(await vapidSubject(storage, { vapidSubject: '', siteUrl })).toBe(
			'mailto:webmaster@news.example.org',
		)
		await saveSiteSettings(storage, { contactEmail: 'team@wetlands.example' })
		expect(await vapidSubject(storage, { vapidSubject: '', siteUrl })).toBe(
			'mailto:team@wetlands.example',
		)
		expect(
			await vapidSubject(storage, { vapidSubject: 'https://wetlands.example/contact', siteUrl }),
		).toBe('https://wetlands.example/contact')
	})
})
