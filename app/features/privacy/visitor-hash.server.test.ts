import { describe, expect, it } from 'vitest'
import { saveSiteSettings } from '#app/features/site/site-settings.server.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { freshStorageEachTest, sqliteDatabase, type TestDatabase } from '#tests/fixtures/storage.ts'
import { forgetOldSalts, visitorHash } from './visitor-hash.server.ts'

describe('the visitor hash', () => {
	let database: TestDatabase
	let storage: Storage
	const ip = '203.0.113.77'
	const morning = new Date('2026-05-01T00:00:01Z')
	const evening = new Date('2026-05-01T23:59:59Z')
	const nextDay = new Date('2026-05-02T00:00:00Z')

	freshStorageEachTest(sqliteDatabase, (fresh) => ({ storage, database } = fresh))

	it('is the same all day for the same parts, and another the next day', async () => {
		const first = await visitorHash(storage, ['contact', ip], morning)
		expect(first).toMatch(/^[0-9a-f]{64}$/)
		expect(await visitorHash(storage, ['contact', ip], evening)).toBe(first)
		expect(await visitorHash(storage, ['contact', ip], nextDay)).not.toBe(first)
		expect(await visitorHash(storage, ['contact', '203.0.113.78'], morning)).not.toBe(first)
		expect(await visitorHash(storage, ['analytics', ip], morning)).not.toBe(first)
		expect(await visitorHash(storage, ['contact2', '03.0.113.77'], morning)).not.toBe(first)
	})

	it('follows the site’s day, in its time zone, not UTC’s', async () => {
		await saveSiteSettings(storage, { timeZone: 'America/Los_Angeles' })
		// 17:00 and 23:00 in California on 1 May: UTC has moved on to 2 May between them.
		const afternoon = await visitorHash(
			storage,
			['analytics', ip],
			new Date('2026-05-02T00:00:00Z'),
		)
		const night = await visitorHash(storage, ['analytics', ip], new Date('2026-05-02T06:00:00Z'))
		expect(night).toBe(afternoon)
		const nextMorning = new Date('2026-05-02T15:00:00Z')
		expect(await visitorHash(storage, ['analytics', ip], nextMorning)).not.toBe(afternoon)
		// The cleanup keeps the site's today's salt, and forgets the day before.
		await forgetOldSalts(storage, nextMorning)
		expect(
			Object.keys(await storage.settings.all()).filter((key) => key.startsWith('privacy.salt.')),
		).toEqual(['privacy.salt.2026-05-02'])
	})

	it('keeps a random salt per day in settings, which another instance reuses', async () => {
		const hash = await visitorHash(storage, ['contact', ip], morning)
		const settings = await storage.settings.all()
		const salt = settings['privacy.salt.2026-05-01'] ?? ''
		expect(salt).toMatch(/^[\w-]{43}$/)
		// A second handle on the same database (another instance) hashes alike.
		const other = database.open()
		try {
			expect(await visitorHash(other, ['contact', ip], evening)).toBe(hash)
		} finally {
			await other.close()
		}
	})

	it('holds nothing of the address, in the hash or in what it stores', async () => {
		const hash = await visitorHash(storage, ['contact', ip], morning)
		expect(hash).not.toContain(ip)
		expect(hash).not.toContain(Buffer.from(ip).toString('hex'))
		expect(JSON.stringify(await storage.settings.all())).not.toContain(ip)
	})

	it('forgets past days’ salts and stale counters, keeping today’s', async () => {
		const yesterday = await visitorHash(storage, ['contact', ip], morning)
		await visitorHash(storage, ['contact', ip], nextDay)
		await storage.settings.set({ 'privacy.saltish': 'not a salt' })
		await storage.rateLimits.hit(`contact:${yesterday}`, 5, 60_000, evening.getTime())
		const today = await storage.rateLimits.hit('contact:today', 5, 60_000, nextDay.getTime())
		expect(today.count).toBe(1)

		const later = new Date(evening.getTime() + 24 * 60 * 60 * 1000 + 1_000)
		expect(await forgetOldSalts(storage, new Date(nextDay.getTime() + 60_000))).toEqual({
			salts: 1,
			counters: 0,
		})
		const keys = Object.keys(await storage.settings.all()).filter((key) => key.includes('salt'))
		expect(keys.sort()).toEqual(['privacy.salt.2026-05-02', 'privacy.saltish'])
		// The salt of 1 May is gone, so its hash can never be made again, here or anywhere.
		expect(await visitorHash(storage, ['contact', ip], morning)).not.toBe(yesterday)
		expect((await forgetOldSalts(storage, later)).counters).toBe(1)
	})
})
