import { createECDH, randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createLogger } from '#server/logger.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { freshStorageEachTest, sqliteDatabase, type TestDatabase } from '#tests/fixtures/storage.ts'
import { createPushSubscriptions } from './subscriptions.server.ts'

function request(body: unknown) {
	return new Request('http://127.0.0.1/api/push/subscriptions', {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'User-Agent': 'Firefox' },
		body: JSON.stringify(body),
	})
}

function subscription() {
	const ecdh = createECDH('prime256v1')
	ecdh.generateKeys()
	return {
		endpoint: `https://8.8.8.8/push/${randomBytes(8).toString('hex')}`,
		keys: {
			p256dh: ecdh.getPublicKey().toString('base64url'),
			auth: randomBytes(16).toString('base64url'),
		},
	}
}

describe('createPushSubscriptions', () => {
	let database: TestDatabase
	let storage: Storage
	const logs: string[] = []
	const deps = () => ({
		storage,
		logger: createLogger('info', (line) => logs.push(line)),
		siteUrl: 'http://127.0.0.1',
	})
	freshStorageEachTest(sqliteDatabase, (fresh) => ({ storage, database } = fresh))

	it('keeps padded keys without their padding, as browsers send them', async () => {
		const { subscribe } = createPushSubscriptions(deps())
		const sent = subscription()
		const padded = {
			...sent,
			keys: { p256dh: `${sent.keys.p256dh}=`, auth: `${sent.keys.auth}==` },
		}
		expect((await subscribe(request(padded), '192.0.2.1')).status).toBe(201)
		expect(await storage.push.findSubscription(sent.endpoint)).toMatchObject(sent.keys)
	})

	it('counts the cap per day: a new day is a new visitor hash', async () => {
		let now = new Date('2026-03-01T23:00:00Z')
		const { subscribe } = createPushSubscriptions(deps(), { now: () => now, perDay: 1 })
		expect((await subscribe(request(subscription()), '192.0.2.1')).status).toBe(201)
		const limited = await subscribe(request(subscription()), '192.0.2.1')
		expect(limited.status).toBe(429)
		expect(limited.headers.get('retry-after')).toBe(String(24 * 60 * 60))
		now = new Date('2026-03-02T00:00:01Z')
		expect((await subscribe(request(subscription()), '192.0.2.1')).status).toBe(201)
	})

	it('answers 503 with Retry-After, not 500, when the database fails', async () => {
		const { subscribe, unsubscribe } = createPushSubscriptions(deps())
		// A database that cannot answer these queries at all.
		await sql`DROP TABLE push_deliveries`.execute(storage.authDatabase.db)
		await sql`DROP TABLE push_subscriptions`.execute(storage.authDatabase.db)
		const response = await subscribe(request(subscription()), '192.0.2.1')
		expect(response.status).toBe(503)
		expect(response.headers.get('retry-after')).toBe('60')
		expect((await unsubscribe(request({ endpoint: 'https://8.8.8.8/x' }))).status).toBe(503)
		expect(logs.some((line) => line.includes('push: could not save a subscription'))).toBe(true)
	})
})
