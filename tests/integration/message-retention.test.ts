// The message retention job on both databases: messages older than the retention setting are
// deleted, newer ones kept; a setting that cannot be read deletes nothing.
import { beforeEach, describe, expect, it } from 'vitest'
import {
	messageRetention,
	messageRetentionJob,
} from '#app/features/contact/message-retention.server.ts'
import { startJob } from '#server/jobs/jobs.ts'
import { createLogger } from '#server/logger.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'

const dayMs = 24 * 60 * 60 * 1000

describe.each(databases)('message retention: $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage
	const logs: { level: string; msg: string }[] = []
	const logger = createLogger('debug', (line) => logs.push(JSON.parse(line)))
	const now = Date.now()

	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))
	beforeEach(async () => {
		logs.length = 0
	})

	/** A message received `daysAgo` days before now, written as if it had arrived then. */
	async function messageFrom(daysAgo: number): Promise<number> {
		const { message } = await storage.messages.create(
			{
				idempotencyKey: `retention-${daysAgo}`,
				name: 'Ana',
				email: 'ana@example.net',
				subject: `${daysAgo} days old`,
				message: 'The marsh is drying out.',
			},
			[],
		)
		await storage.authDatabase.db
			.updateTable('contact_messages')
			.set({ created_at: new Date(now - daysAgo * dayMs).toISOString() })
			.where('id', '=', message.id)
			.execute()
		return message.id
	}

	const remaining = async () =>
		(await storage.messages.list({ box: 'inbox', limit: 50, offset: 0 })).items
			.map((message) => message.subject)
			.sort()

	it('keeps messages for 365 days unless set otherwise, and deletes only older ones', async () => {
		for (const days of [2, 364, 366, 400]) await messageFrom(days)
		const job = startJob(messageRetentionJob, storage, logger, {
			intervalMs: 60 * 60 * 1000,
			clock: () => new Date(now),
		})
		try {
			await job.runOnce()
			expect(await remaining()).toEqual(['2 days old', '364 days old'])

			expect(await messageRetention.set(storage, '30')).toEqual({ ok: true, days: 30 })
			expect(await job.runOnce()).toEqual({ ok: true, days: 30, deleted: 1 })
			expect(await remaining()).toEqual(['2 days old'])
			// Every instance runs it: running again changes nothing.
			expect(await job.runOnce()).toEqual({ ok: true, days: 30, deleted: 0 })
		} finally {
			await job.stop()
		}
		expect(logs.filter((entry) => entry.msg === 'messages: old messages deleted')).toHaveLength(2)
	})

	it('deletes nothing while the setting cannot be read, and says so once', async () => {
		await messageFrom(400)
		await storage.settings.set({ [messageRetention.key]: 'a year' })
		const job = startJob(messageRetentionJob, storage, logger, { intervalMs: 60 * 60 * 1000 })
		try {
			await job.runOnce()
			await job.runOnce()
		} finally {
			await job.stop()
		}
		expect(await remaining()).toEqual(['400 days old'])
		const warnings = logs.filter((entry) => entry.level === 'warn')
		expect(warnings).toHaveLength(1)
		expect(warnings[0]?.msg).toContain(messageRetention.key)
	})

	it('refuses a retention that is not a whole number of days from 1', async () => {
		for (const bad of ['0', '-5', '1.5', '12 days', '99999999']) {
			const result = await messageRetention.set(storage, bad)
			expect(result.ok).toBe(false)
		}
		expect((await storage.settings.all())[messageRetention.key]).toBeUndefined()
		expect(await messageRetention.set(storage, ' 90 ')).toEqual({ ok: true, days: 90 })
		expect((await storage.settings.all())[messageRetention.key]).toBe('90')
	})
})
