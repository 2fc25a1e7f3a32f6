// The mail outbox against a real SMTP server on a local port: what arrives, refusals retried
// with growing waits, giving up after the last retry, a server that is down, several workers on
// one database, and account mail going through it. Time is a fake clock moved by the test.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
	type DeliveryOptions,
	defaultRetry,
	deliverDueMail,
} from '#app/features/mail/outbox.server.ts'
import { type MailSender, smtpSender } from '#app/features/mail/smtp.server.ts'
import { type MailOutbox, startMailOutbox } from '#server/jobs/mail-outbox.ts'
import { createLogger } from '#server/logger.ts'
import type { OutgoingMail } from '#storage/port/mail.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { makeAccount, postForm, signIn, teamPassword } from '#tests/fixtures/forms.ts'
import { closedPort, startSmtpServer, type TestSmtpServer } from '#tests/fixtures/smtp.ts'
import { databases, freshStorageEachTest, type TestDatabase } from '#tests/fixtures/storage.ts'

const siteUrl = 'https://canopy.example.org'

function mail(overrides: Partial<OutgoingMail> = {}): OutgoingMail {
	return {
		kind: 'contact-notification',
		recipient: 'team@example.org',
		subject: 'New message: Wetlands',
		textBody: 'Ana wrote:\n\nThe marsh by the river is drying out. Can you look into it?',
		replyTo: 'ana@example.net',
		...overrides,
	}
}

function recordingLogger() {
	const logs: { level: string; msg: string; [field: string]: unknown }[] = []
	return { logs, logger: createLogger('debug', (line) => logs.push(JSON.parse(line))) }
}

/**
 * A clock that stands still until the test moves it. It starts a minute ahead of the real one:
 * mail is queued at the real time, so what a test queues is due by it.
 */
function fakeClock(start = Date.now() + 60_000) {
	let now = start
	return {
		now: () => new Date(now),
		set(at: number) {
			now = at
		},
		at: () => now,
	}
}

/** Once the step a job takes as it starts is done: the test's own steps come after it. */
async function settled(outbox: MailOutbox) {
	await new Promise((resolve) => setTimeout(resolve, 0))
	await outbox.runOnce()
}

describe.each(databases)('mail outbox: $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage
	let smtp: TestSmtpServer | undefined
	let senders: MailSender[]

	freshStorageEachTest(create, (fresh) => ({ storage, database } = fresh))
	beforeEach(async () => {
		senders = []
	})
	afterEach(async () => {
		for (const sender of senders) sender.close()
		await smtp?.close()
		smtp = undefined
	})

	function senderFor(url: string) {
		const sender = smtpSender(url, siteUrl, { timeoutMs: 5_000 })
		senders.push(sender)
		return sender
	}

	it('sends a queued mail as soon as it is woken, with its recipient, subject, reply-to and text', async () => {
		smtp = await startSmtpServer()
		const { logger } = recordingLogger()
		// A tick an hour away: only wake() can make this mail go within the test.
		const outbox = startMailOutbox(storage, logger, {
			smtpUrl: smtp.url,
			siteUrl,
			intervalMs: 60 * 60 * 1000,
		})
		try {
			await settled(outbox)
			await storage.outbox.enqueue([mail()])
			outbox.wake()
			await smtp.waitFor(1)
		} finally {
			await outbox.stop()
		}
		const [arrived] = smtp.received
		expect(arrived?.to).toEqual(['team@example.org'])
		expect(arrived?.from).toBe('no-reply@canopy.example.org')
		expect(arrived?.headers.from).toBe('Canopy <no-reply@canopy.example.org>')
		expect(arrived?.headers.to).toBe('team@example.org')
		expect(arrived?.subject).toBe('New message: Wetlands')
		expect(arrived?.replyTo).toBe('ana@example.net')
		expect(arrived?.text).toBe(mail().textBody)
		expect(await storage.outbox.pending()).toEqual([])
	})

	it('sends from the address SMTP_URL names, without a reply-to when the mail has none', async () => {
		smtp = await startSmtpServer()
		await storage.outbox.enqueue([mail({ replyTo: null, kind: 'invite' })])
		const { logger } = recordingLogger()
		const sender = senderFor(
			`${smtp.url}?from=${encodeURIComponent('Wetland Trust <hi@trust.org>')}`,
		)
		const outcome = await deliverDueMail(storage, sender, logger, {
			clock: () => new Date(),
			leaseMs: 60_000,
			batchSize: 10,
			retry: defaultRetry,
		})
		expect(outcome).toEqual({ claimed: 1, sent: 1, failed: 0, abandoned: 0 })
		expect(smtp.received[0]?.headers.from).toBe('Wetland Trust <hi@trust.org>')
		expect(smtp.received[0]?.from).toBe('hi@trust.org')
		expect(smtp.received[0]?.replyTo).toBeUndefined()
	})

	it('retries a refused mail after growing waits and delivers it once when the server takes it', async () => {
		smtp = await startSmtpServer({ refuse: (attempt) => (attempt <= 3 ? 451 : undefined) })
		const clock = fakeClock()
		const { logger, logs } = recordingLogger()
		const options: DeliveryOptions = {
			clock: clock.now,
			leaseMs: 60_000,
			batchSize: 10,
			retry: defaultRetry,
			random: () => 0.5,
		}
		const sender = senderFor(smtp.url)
		await storage.outbox.enqueue([mail()])

		const waits: number[] = []
		for (let attempt = 1; attempt <= 3; attempt++) {
			expect(await deliverDueMail(storage, sender, logger, options)).toMatchObject({ failed: 1 })
			const [queued] = await storage.outbox.pending()
			expect(queued).toMatchObject({ attempts: attempt })
			expect(queued?.lastError).toContain('451')
			const due = Date.parse(queued?.nextAttemptAt ?? '')
			waits.push(due - clock.at())
			// Not before its time: a step a moment early takes nothing.
			clock.set(due - 1)
			expect(await deliverDueMail(storage, sender, logger, options)).toMatchObject({ claimed: 0 })
			clock.set(due)
		}
		// 1 s, 2 s, 4 s, each half fixed and half random (the random half at its middle here).
		expect(waits).toEqual([750, 1_500, 3_000])
		expect(await deliverDueMail(storage, sender, logger, options)).toMatchObject({ sent: 1 })
		expect(smtp.received).toHaveLength(1)
		expect(smtp.attempts()).toBe(4)
		expect(await storage.outbox.pending()).toEqual([])
		clock.set(clock.at() + 24 * 60 * 60 * 1000)
		expect(await deliverDueMail(storage, sender, logger, options)).toMatchObject({ claimed: 0 })
		expect(smtp.received).toHaveLength(1)
		expect(logs.filter((entry) => entry.level === 'warn')).toHaveLength(3)
		expect(logs.filter((entry) => entry.level === 'error')).toEqual([])
	})

	it('gives up on a mail the server keeps refusing after the last retry, and says so once', async () => {
		smtp = await startSmtpServer({ refuse: () => 550 })
		const clock = fakeClock()
		const { logger, logs } = recordingLogger()
		const options: DeliveryOptions = {
			clock: clock.now,
			leaseMs: 60_000,
			batchSize: 10,
			retry: { baseMs: 1_000, factor: 2, maxMs: 5_000, maxAttempts: 6 },
			random: () => 1,
		}
		const sender = senderFor(smtp.url)
		await storage.outbox.enqueue([mail()])

		const waits: number[] = []
		for (let attempt = 1; attempt <= 5; attempt++) {
			await deliverDueMail(storage, sender, logger, options)
			const [queued] = await storage.outbox.pending()
			const due = Date.parse(queued?.nextAttemptAt ?? '')
			waits.push(due - clock.at())
			clock.set(due)
		}
		// Doubling, then held at the cap.
		expect(waits).toEqual([1_000, 2_000, 4_000, 5_000, 5_000])
		expect(await deliverDueMail(storage, sender, logger, options)).toMatchObject({ abandoned: 1 })
		expect(await storage.outbox.pending()).toEqual([])
		const [given] = await storage.outbox.abandoned()
		expect(given).toMatchObject({ attempts: 6, sentAt: null })
		expect(given?.lastError).toContain('550')

		clock.set(clock.at() + 7 * 24 * 60 * 60 * 1000)
		expect(await deliverDueMail(storage, sender, logger, options)).toMatchObject({ claimed: 0 })
		expect(smtp.attempts()).toBe(6)
		expect(smtp.received).toEqual([])
		const errors = logs.filter((entry) => entry.level === 'error')
		expect(errors).toHaveLength(1)
		expect(errors[0]).toMatchObject({ msg: expect.stringContaining('given up'), attempts: 6 })
	})

	it('keeps mail queued while the mail server is down, without holding anyone, and sends it once it is up', async () => {
		const port = await closedPort()
		const clock = fakeClock()
		const { logger } = recordingLogger()
		const outbox = startMailOutbox(storage, logger, {
			smtpUrl: `smtp://127.0.0.1:${port}`,
			siteUrl,
			intervalMs: 60 * 60 * 1000,
			clock: clock.now,
			random: () => 0,
		})
		try {
			await settled(outbox)
			// What the contact form does: the message and its mail in one write, then a wake.
			const started = performance.now()
			const { created } = await storage.messages.create(
				{
					idempotencyKey: 'form-1',
					name: 'Ana',
					email: 'ana@example.net',
					subject: 'Wetlands',
					message: 'The marsh is drying out.',
				},
				[mail()],
			)
			outbox.wake()
			expect(created).toBe(true)
			expect(performance.now() - started).toBeLessThan(1_000)

			expect(await outbox.runOnce()).toMatchObject({ failed: 1 })
			const [queued] = await storage.outbox.pending()
			expect(queued?.lastError).toMatch(/ECONNREFUSED|connect/i)
			expect(Date.parse(queued?.nextAttemptAt ?? '')).toBe(clock.at() + 500)

			smtp = await startSmtpServer({ port })
			expect(await outbox.runOnce()).toMatchObject({ claimed: 0 })
			clock.set(clock.at() + 500)
			expect(await outbox.runOnce()).toMatchObject({ sent: 1 })
		} finally {
			await outbox.stop()
		}
		expect(smtp.received.map((arrived) => arrived.subject)).toEqual(['New message: Wetlands'])
	})

	it('sends a mail whose worker died mid-send once its lease runs out', async () => {
		smtp = await startSmtpServer()
		const clock = fakeClock()
		const { logger } = recordingLogger()
		await storage.outbox.enqueue([mail()])
		// Another instance took it and was killed before it could record anything.
		expect(await storage.outbox.claimDue(clock.now(), 60_000, 10)).toHaveLength(1)
		const options = { clock: clock.now, leaseMs: 60_000, batchSize: 10, retry: defaultRetry }
		const sender = senderFor(smtp.url)
		expect(await deliverDueMail(storage, sender, logger, options)).toMatchObject({ claimed: 0 })
		clock.set(clock.at() + 60_001)
		expect(await deliverDueMail(storage, sender, logger, options)).toMatchObject({ sent: 1 })
		expect(smtp.received).toHaveLength(1)
	})

	it('sends nothing without SMTP_URL, keeps what is queued, and says so once', async () => {
		const { logger, logs } = recordingLogger()
		const outbox = startMailOutbox(storage, logger, { smtpUrl: '', siteUrl })
		await storage.outbox.enqueue([mail()])
		outbox.wake()
		expect(await outbox.runOnce()).toEqual({ claimed: 0, sent: 0, failed: 0, abandoned: 0 })
		await outbox.stop()
		expect(await storage.outbox.pending()).toMatchObject([{ attempts: 0 }])
		expect(logs.map((entry) => entry.msg)).toEqual([expect.stringContaining('SMTP_URL is not set')])
	})

	it('sends each mail exactly once with two workers on one database', async () => {
		smtp = await startSmtpServer()
		const subjects = Array.from({ length: 24 }, (_, n) => `Message ${n + 1}`)
		await storage.outbox.enqueue(subjects.map((subject) => mail({ subject })))
		// PostgreSQL: a second connection pool, as a second instance has. SQLite: one handle per
		// process (it waits for locks synchronously), so the second worker shares it.
		const other = database.dialect === 'postgres' ? database.open() : storage
		const { logger } = recordingLogger()
		const options = { smtpUrl: smtp.url, siteUrl, intervalMs: 60 * 60 * 1000, batchSize: 4 }
		const workers = [
			startMailOutbox(storage, logger, options),
			startMailOutbox(other, logger, options),
		]
		try {
			while ((await storage.outbox.pending()).length > 0) {
				await Promise.all(workers.map((worker) => worker.runOnce()))
			}
		} finally {
			await Promise.all(workers.map((worker) => worker.stop()))
			if (other !== storage) await other.close()
		}
		expect(smtp.received.map((arrived) => arrived.subject).sort()).toEqual([...subjects].sort())
		expect(smtp.attempts()).toBe(24)
	})
})

describe('account mail through the outbox', () => {
	let app: TestApp
	let smtp: TestSmtpServer

	beforeEach(async () => {
		// Refuses the first try, as a busy server does: the invite must still arrive.
		smtp = await startSmtpServer({ refuse: (attempt) => (attempt === 1 ? 421 : undefined) })
		app = await startTestApp({
			seed: false,
			smtpUrl: `${smtp.url}?from=team@example.org`,
			mail: { intervalMs: 50, retry: { baseMs: 100 } },
		})
	})
	afterEach(async () => {
		await app.close()
		await smtp.close()
	})

	it('queues an invite, retries it when refused, and delivers it with its link', async () => {
		await makeAccount(app, 'rosa@example.org', 'admin', 'Rosa')
		const rosa = (await signIn(app, 'rosa@example.org', teamPassword)).cookie
		const invited = await postForm(
			app,
			'/admin/team',
			{ intent: 'invite', email: 'lea@example.org', name: 'Lea', role: 'editor' },
			{ cookie: rosa },
		)
		expect(invited.status).toBe(200)
		expect(await invited.text()).toContain('It is also on its way to them by mail.')
		await smtp.waitFor(1)
		const [arrived] = smtp.received
		expect(arrived?.to).toEqual(['lea@example.org'])
		expect(arrived?.subject).toBe('You are invited to the Canopy team')
		expect(arrived?.text).toMatch(/Rosa invited you .* as an editor\./)
		expect(arrived?.text).toMatch(/\/admin\/invite\?token=[A-Za-z0-9_-]+/)
		expect(smtp.attempts()).toBe(2)
		// The server has the mail before the worker hears its answer and marks it sent.
		await expect.poll(() => app.storage.outbox.pending()).toEqual([])
	})
})
