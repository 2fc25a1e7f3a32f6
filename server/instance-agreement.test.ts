// Instances comparing what they run with, through a real database: SQLite, and PostgreSQL when
// configured.

import { afterEach, describe, expect, it } from 'vitest'
import webPush from 'web-push'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import { loadConfig } from './env.ts'
import { type AgreementOptions, joinInstances } from './instance-agreement.ts'
import { createLogger } from './logger.ts'

const stored = webPush.generateVAPIDKeys()

function instance(env: Record<string, string> = {}) {
	return loadConfig({ SITE_URL: 'https://example.org', ...env })
}

describe.each(databases)('instances agreeing on $name', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => {
		storage = fresh.storage
	})

	const joined: (() => Promise<void>)[] = []
	afterEach(async () => {
		for (const stop of joined.splice(0)) await stop()
	})

	let clock = Date.parse('2026-03-01T12:00:00Z')
	const options = (id: string): Partial<AgreementOptions> => ({
		id,
		now: () => new Date(clock),
		refreshMs: 60_000,
	})
	async function join(id: string, env: Record<string, string> = {}, publicKey = stored.publicKey) {
		const logs: Record<string, unknown>[] = []
		const logger = createLogger('info', (line) => logs.push(JSON.parse(line)))
		const agreement = await joinInstances(storage, instance(env), publicKey, logger, options(id))
		if (agreement.ok) joined.push(agreement.stop)
		return { agreement, warnings: logs.filter((entry) => entry.level === 'warn') }
	}

	it('starts quietly beside an instance with the same settings', async () => {
		await join('web1:3001')
		const second = await join('web1:3002')
		expect(second.agreement.ok).toBe(true)
		expect(second.warnings).toEqual([])
	})

	it('warns, naming the variable and both values, when SITE_URL or SMTP_URL differ', async () => {
		await join('web1:3001', { SMTP_URL: 'smtp://mailer:Mail-secret-7@mail.example.org:587' })
		const second = await join('web1:3002', { SITE_URL: 'https://www.example.org' })
		expect(second.agreement.ok).toBe(true)
		expect(second.warnings).toMatchObject([
			{
				msg: 'SITE_URL differs between instances: https://www.example.org here, https://example.org on web1:3001. Set the same SITE_URL on every instance (README, Deployment).',
				variable: 'SITE_URL',
				here: 'https://www.example.org',
				there: 'https://example.org',
				instance: 'web1:3001',
			},
			{ variable: 'SMTP_URL', here: '(not set)', there: 'smtp://mail.example.org:587' },
		])
		expect(JSON.stringify(await storage.settings.all())).not.toContain('Mail-secret-7')
	})

	it('refuses the later of two instances with different push keys, and leaves no record', async () => {
		await join('web1:3001')
		clock += 1_000
		const own = webPush.generateVAPIDKeys()
		const env = { VAPID_PUBLIC_KEY: own.publicKey, VAPID_PRIVATE_KEY: own.privateKey }
		const second = await join('web1:3002', env, own.publicKey)
		expect(second.agreement).toEqual({
			ok: false,
			problem: `VAPID_PUBLIC_KEY here is ${own.publicKey}, but the instance web1:3001 (running since 2026-03-01T12:00:00.000Z) signs push messages with ${stored.publicKey}. Browsers would subscribe with one key and be sent messages signed with the other, which push services refuse. Set the same VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY on every instance, or neither on any. To change the pair, stop every instance first.`,
		})
		expect(Object.keys(await storage.settings.all())).not.toContain('instance.web1:3002/')
		expect(JSON.stringify(await storage.settings.all())).not.toContain(own.privateKey)
	})

	it('takes a new push key once every instance has stopped, or has not been seen for 90 s', async () => {
		const own = webPush.generateVAPIDKeys()
		const env = { VAPID_PUBLIC_KEY: own.publicKey, VAPID_PRIVATE_KEY: own.privateKey }
		const first = await join('web1:3001')
		if (first.agreement.ok) await first.agreement.stop()
		expect((await join('web1:3002', env, own.publicKey)).agreement.ok).toBe(true)

		// An instance killed without stopping leaves its record, which counts until it is stale.
		clock += 1_000
		expect((await join('web1:3003')).agreement.ok).toBe(false)
		clock += 91_000
		expect((await join('web1:3003')).agreement.ok).toBe(true)
	})
})
