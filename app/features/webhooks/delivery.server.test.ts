// The webhook worker against a real receiver: an HTTP server on this machine that checks each
// delivery's Standard Webhooks signature with the reference library, as a receiver would; and
// what the worker does with refusals, failures, redirects, silence and 410 Gone.
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import { createLogger } from '#server/logger.ts'
import { type WebhookEventType, webhookEventTypes } from '#storage/port/webhooks.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest, sqliteDatabase } from '#tests/fixtures/storage.ts'
import {
	type ReceivedWebhook,
	startWebhookReceiver,
	type WebhookReceiver,
} from '#tests/fixtures/webhook-receiver.ts'
import { classifyAnswer, retrySchedule } from './delivery.server.ts'
import { webhookDeliverySteps } from './delivery-worker.server.ts'
import { checkWebhookUrl, webhookLookup } from './webhook-address.server.ts'
import { sendTestEvent } from './webhook-admin.server.ts'
import { webhookEventSchemas } from './webhook-events.schema.ts'
import { setAllowsPrivateAddresses } from './webhook-settings.server.ts'

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const siteUrl = 'https://news.example.org'

/** A receiver on 127.0.0.1, closed after the test. */
async function receiver(answer?: Parameters<typeof startWebhookReceiver>[0]) {
	const started = await startWebhookReceiver(answer)
	receivers.push(started)
	return started
}
const receivers: WebhookReceiver[] = []
afterEach(async () => {
	for (const one of receivers.splice(0)) await one.close()
})

function worker(storage: Storage, options: Parameters<typeof webhookDeliverySteps>[3] = {}) {
	const logs: string[] = []
	const steps = webhookDeliverySteps(
		storage,
		createLogger('info', (line) => logs.push(line)),
		{ siteUrl },
		{ random: () => 0.5, ...options },
	)
	workers.push(steps)
	return { ...steps, logs }
}
const workers: { release(): void }[] = []
afterEach(() => {
	for (const one of workers.splice(0)) one.release()
})

describe('webhook delivery', () => {
	let storage: Storage
	freshStorageEachTest(sqliteDatabase, (fresh) => ({ storage } = fresh))

	async function endpoint(url: string, events: WebhookEventType[] = ['article.published']) {
		return storage.webhooks.createEndpoint(
			{ url, description: '', events, enabled: true },
			secret,
			new Date(),
		)
	}

	async function publish(slug = 'peatlands') {
		const created = await storage.articles.create(articleWrite({ slug, title: 'Peatlands' }))
		if (!created.ok) throw new Error('create failed')
		return created.saved.article
	}

	it('sends a signed event the receiver verifies, with the article’s address', async () => {
		const { url, received } = await receiver()
		await setAllowsPrivateAddresses(storage, true)
		const hook = await endpoint(`${url}/hooks/canopy?source=site`)
		const article = await publish()
		const outcome = await worker(storage).step()
		expect(outcome).toMatchObject({ claimed: 1, delivered: 1 })

		expect(received).toHaveLength(1)
		const [got] = received as [ReceivedWebhook]
		expect(got.path).toBe('/hooks/canopy?source=site')
		expect(got.headers['content-type']).toBe('application/json')
		expect(got.headers['user-agent']).toBe(`Canopy-Webhooks/1 (+${siteUrl})`)
		// The reference library accepts the signature, and a byte changed is refused.
		const verified = new Webhook(secret).verify(got.body, got.headers as Record<string, string>)
		expect(verified).toEqual({
			type: 'article.published',
			timestamp: expect.any(String),
			data: expect.objectContaining({
				id: article.id,
				slug: 'peatlands',
				title: 'Peatlands',
				status: 'published',
				url: `${siteUrl}/articles/peatlands`,
			}),
		})
		expect(() =>
			new Webhook(secret).verify(
				got.body.replace('Peatlands', 'Peatlandz'),
				got.headers as Record<string, string>,
			),
		).toThrow()
		const [logged] = await storage.webhooks.deliveries(hook.id, { limit: 1 })
		expect(logged).toMatchObject({ state: 'delivered', lastStatus: 204, attempts: 1 })
		expect(got.headers['webhook-id']).toBe(logged?.messageId)
	})

	it('signs with the old and the new secret while they overlap, so either receiver accepts', async () => {
		const { url, received } = await receiver()
		await setAllowsPrivateAddresses(storage, true)
		const hook = await endpoint(url)
		const newSecret = 'whsec_MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0'
		await storage.webhooks.rotateSecret(
			hook.id,
			newSecret,
			new Date(),
			new Date(Date.now() + 60_000),
		)
		await publish('during')
		expect(await worker(storage).step()).toMatchObject({ delivered: 1 })
		const [during] = received as [ReceivedWebhook]
		const headers = during.headers as Record<string, string>
		expect(headers['webhook-signature']?.split(' ')).toHaveLength(2)
		// A receiver still on the old secret, and one already on the new: both accept.
		expect(new Webhook(secret).verify(during.body, headers)).toMatchObject({
			type: 'article.published',
		})
		expect(new Webhook(newSecret).verify(during.body, headers)).toMatchObject({
			type: 'article.published',
		})
		expect(() =>
			new Webhook('whsec_b3RoZXIgc2VjcmV0IG90aGVyIHNlY3JldA==').verify(during.body, headers),
		).toThrow()

		// Stopped early (it may have leaked): the old secret no longer signs.
		await storage.webhooks.retirePreviousSecret(hook.id, new Date())
		await publish('after')
		expect(await worker(storage).step()).toMatchObject({ delivered: 1 })
		const after = received[1] as ReceivedWebhook
		const afterHeaders = after.headers as Record<string, string>
		expect(afterHeaders['webhook-signature']?.split(' ')).toHaveLength(1)
		expect(() => new Webhook(secret).verify(after.body, afterHeaders)).toThrow()
		expect(new Webhook(newSecret).verify(after.body, afterHeaders)).toMatchObject({
			type: 'article.published',
		})
	})

	it('sends every event as the OpenAPI description’s schemas say, field for field', async () => {
		const { url, received } = await receiver()
		await setAllowsPrivateAddresses(storage, true)
		const hook = await endpoint(url, [...webhookEventTypes])
		const article = await publish()
		const edited = await storage.articles.update(article.id, article.version, {
			...articleWrite({ slug: 'peatlands', title: 'Peatlands, again' }),
			publishedAt: article.publishedAt,
		})
		if (!edited.ok) throw new Error('update failed')
		await storage.articles.update(article.id, edited.saved.article.version, {
			...articleWrite({ slug: 'peatlands' }),
			status: 'draft',
		})
		await storage.articles.saveBySlug(articleWrite({ slug: 'peatlands' }))
		await storage.articles.deleteBySlug('peatlands')
		// A page's four events.
		const page = await storage.articles.create(
			articleWrite({ slug: 'about', title: 'About', kind: 'page' }),
		)
		if (!page.ok) throw new Error('page not made')
		const paged = await storage.articles.update(page.saved.article.id, page.saved.article.version, {
			...articleWrite({ slug: 'about', title: 'About us', kind: 'page' }),
			publishedAt: page.saved.article.publishedAt,
		})
		if (!paged.ok) throw new Error('page not saved')
		await storage.articles.update(page.saved.article.id, paged.saved.article.version, {
			...articleWrite({ slug: 'about', kind: 'page' }),
			status: 'draft',
		})
		await storage.articles.saveBySlug(articleWrite({ slug: 'about', kind: 'page' }))
		await storage.articles.deleteBySlug('about')
		await storage.messages.create(
			{
				idempotencyKey: 'k',
				name: 'Ada',
				email: 'ada@example.org',
				subject: 'Hi',
				message: 'Hello',
			},
			[],
		)
		const { subscriber } = await storage.newsletter.subscribe(
			'reader@example.org',
			'form',
			new Date(),
		)
		await storage.newsletter.confirm(subscriber.id, new Date())
		await sendTestEvent(storage, hook)
		expect(await worker(storage).step()).toMatchObject({ delivered: 13 })
		const types = received.map((got) => {
			const body = JSON.parse(got.body) as {
				type: keyof typeof webhookEventSchemas
				data: { url?: string }
			}
			// Strict: a field sent but not described fails here, as one described but not sent.
			webhookEventSchemas[body.type].parse(body)
			// A page's public address is its own, not under /articles.
			if (body.type === 'page.updated') expect(body.data.url).toBe(`${siteUrl}/about`)
			return body.type
		})
		expect(types.sort()).toEqual(
			[
				'article.deleted',
				'article.published',
				'article.published',
				'article.unpublished',
				'article.updated',
				'page.deleted',
				'page.published',
				'page.published',
				'page.unpublished',
				'page.updated',
				'contact.received',
				'subscriber.added',
				'webhook.test',
			].sort(),
		)
	})

	it('sends nothing to this machine unless the setting allows it', async () => {
		const { url, received } = await receiver()
		const hook = await endpoint(url)
		await publish()
		const steps = worker(storage)
		expect(await steps.step()).toMatchObject({ claimed: 1, retried: 1 })
		expect(received).toEqual([])
		const [logged] = await storage.webhooks.deliveries(hook.id, { limit: 1 })
		expect(logged?.lastError).toMatch(/http: is allowed for private addresses/)

		// A host name is checked again as the worker connects: one that resolves here is refused.
		const lookup = webhookLookup({ allowPrivate: false })
		const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
			lookup('localhost', { all: true }, (failure) => resolve(failure)),
		)
		expect(error?.code).toBe('EWEBHOOKHOST')
		expect(error?.message).toMatch(/loopback address/)
	})

	it('checks an endpoint’s address when it is saved', async () => {
		const strict = { allowPrivate: false }
		const open = { allowPrivate: true }
		const refused = async (url: string, options = strict) => {
			const checked = await checkWebhookUrl(url, options, { resolve: false })
			return checked.ok ? '' : checked.error
		}
		expect(await refused('https://hooks.example.org/x')).toBe('')
		expect(await refused('https://93.184.215.14/')).toBe('')
		expect(await refused('not a url')).toMatch(/full address/)
		expect(await refused('ftp://hooks.example.org/')).toMatch(/https:/)
		expect(await refused('http://hooks.example.org/')).toMatch(/must be https/)
		expect(await refused('https://user:pw@hooks.example.org/')).toMatch(/user name/)
		for (const internal of [
			'https://127.0.0.1/',
			'https://127.1/',
			'https://2130706433/',
			'https://[::1]/',
			'https://[::ffff:10.0.0.1]/',
			'https://192.168.1.10/',
			'https://localhost:8080/',
			'https://n8n/',
		])
			expect(await refused(internal)).not.toBe('')
		expect(await refused('https://127.0.0.1/')).toMatch(/allow private addresses/)
		// The setting lets this machine and private networks through, http: too; never metadata.
		for (const internal of ['http://127.0.0.1:5678/', 'https://[fd00::1]/', 'http://n8n:5678/'])
			expect(await refused(internal, open)).toBe('')
		expect(await refused('http://169.254.169.254/latest/meta-data/', open)).toMatch(/link-local/)
		// http: to the internet stays refused: readers' messages would cross it in the clear.
		expect(await refused('http://93.184.215.14/hook', open)).toMatch(/must be https/)
		expect(await refused('https://0.0.0.0/', open)).toMatch(/unspecified/)
	})

	it('retries a failure on the schedule, honours Retry-After, and gives up after a day', async () => {
		let status = 500
		const { url } = await receiver((_, response) =>
			response
				.writeHead(status, status === 429 ? { 'retry-after': '7200' } : {})
				.end('Something broke'),
		)
		await setAllowsPrivateAddresses(storage, true)
		const hook = await endpoint(url)
		await publish()
		let now = new Date()
		const steps = worker(storage, { clock: () => now })
		expect(await steps.step()).toMatchObject({ retried: 1 })
		let [logged] = await storage.webhooks.deliveries(hook.id, { limit: 1 })
		expect(logged).toMatchObject({
			state: 'pending',
			lastStatus: 500,
			lastError: 'Something broke',
		})
		// First step of the schedule: 5 s (the jitter is 0 with random 0.5).
		expect(new Date(logged?.nextAttemptAt ?? '').getTime() - now.getTime()).toBe(retrySchedule[0])

		status = 429
		now = new Date(now.getTime() + 6_000)
		await steps.step()
		;[logged] = await storage.webhooks.deliveries(hook.id, { limit: 1 })
		expect(new Date(logged?.nextAttemptAt ?? '').getTime() - now.getTime()).toBe(7_200_000)

		// Near the end of its day, the next failure is the last: no retry would fall within it.
		status = 503
		now = new Date(new Date(logged?.createdAt ?? '').getTime() + 24 * 60 * 60_000 - 2 * 60_000)
		expect(await steps.step()).toMatchObject({ failed: 1 })
		;[logged] = await storage.webhooks.deliveries(hook.id, { limit: 1 })
		expect(logged).toMatchObject({ state: 'failed', attempts: 3, lastStatus: 503 })
		expect(logged?.lastError).toMatch(/a day of retries ran out/)
	})

	it('sends nothing once an event’s day is over, however it was delayed', async () => {
		const { url, received } = await receiver()
		await setAllowsPrivateAddresses(storage, true)
		const hook = await endpoint(url)
		await publish()
		// Claimed a day late (the instance that held it died, the site was down…).
		const late = new Date(Date.now() + 24 * 60 * 60_000 + 60_000)
		expect(await worker(storage, { clock: () => late }).step()).toMatchObject({ failed: 1 })
		expect(received).toEqual([])
		const [logged] = await storage.webhooks.deliveries(hook.id, { limit: 1 })
		expect(logged).toMatchObject({ state: 'failed', lastStatus: null })
		expect(logged?.lastError).toMatch(/its day ran out before it could be sent/)
	})

	it('follows no redirect, waits no longer than its timeout, and stops at 410 Gone', async () => {
		const elsewhere = await receiver()
		const redirecting = await receiver((_, response) =>
			response.writeHead(307, { location: `${elsewhere.url}/took-it` }).end(),
		)
		const silent = await receiver(() => {})
		const gone = await receiver((_, response) => response.writeHead(410).end())
		await setAllowsPrivateAddresses(storage, true)
		const [moved, hanging, finished] = [
			await endpoint(redirecting.url),
			await endpoint(silent.url),
			await endpoint(gone.url),
		]
		await publish()
		const steps = worker(storage, { timeoutMs: 300 })
		const started = performance.now()
		expect(await steps.step()).toMatchObject({ claimed: 3, retried: 2, failed: 1 })
		expect(performance.now() - started).toBeLessThan(5_000)

		expect(redirecting.received).toHaveLength(1)
		expect(elsewhere.received).toEqual([])
		const [redirected] = await storage.webhooks.deliveries(moved.id, { limit: 1 })
		expect(redirected).toMatchObject({ state: 'pending', lastStatus: 307 })
		expect(redirected?.lastError).toMatch(/Redirects are not followed/)

		const [timedOut] = await storage.webhooks.deliveries(hanging.id, { limit: 1 })
		expect(timedOut).toMatchObject({ state: 'pending', lastStatus: null })
		expect(timedOut?.lastError).toMatch(/No answer within/)

		expect(await storage.webhooks.findEndpoint(finished.id)).toMatchObject({
			enabled: false,
			disabledReason: expect.stringMatching(/410 Gone/),
		})
		const [stopped] = await storage.webhooks.deliveries(finished.id, { limit: 1 })
		expect(stopped).toMatchObject({ state: 'failed', lastStatus: 410 })
		// Turned off: its next events are not even queued.
		await publish('another')
		expect(await storage.webhooks.deliveries(finished.id, { limit: 10 })).toHaveLength(1)
	})
})

describe.each(databases)('webhook delivery across instances: $name', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	it('sends each event once when two workers run together', async () => {
		const { url, received } = await receiver()
		await setAllowsPrivateAddresses(storage, true)
		await storage.webhooks.createEndpoint(
			{ url, description: '', events: ['article.published'], enabled: true },
			secret,
			new Date(),
		)
		for (let i = 0; i < 30; i++) {
			const created = await storage.articles.create(articleWrite())
			expect(created.ok).toBe(true)
		}
		const [one, two] = [worker(storage, { batchSize: 7 }), worker(storage, { batchSize: 7 })]
		for (let round = 0; round < 10; round++) await Promise.all([one.step(), two.step()])
		const ids = received.map((got) => got.headers['webhook-id'])
		expect(ids).toHaveLength(30)
		expect(new Set(ids).size).toBe(30)
	})
})

describe('classifyAnswer', () => {
	const createdAt = '2026-11-27T10:00:00.000Z'
	const now = new Date(createdAt)
	const failed = { status: 500, error: 'no', durationMs: 1 }

	it('delivers on 2xx, stops on 410, and retries anything else on the schedule', () => {
		const context = { attempts: 1, createdAt, now, random: () => 0.5 }
		expect(classifyAnswer({ ...failed, status: 200 }, context)).toEqual({ kind: 'delivered' })
		expect(classifyAnswer({ ...failed, status: 299 }, context)).toEqual({ kind: 'delivered' })
		expect(classifyAnswer({ ...failed, status: 410 }, context)).toEqual({ kind: 'gone' })
		for (const status of [301, 400, 404, 500, null])
			expect(classifyAnswer({ ...failed, status }, context)).toEqual({
				kind: 'retry',
				delayMs: 5_000,
			})
		expect(classifyAnswer(failed, { ...context, random: () => 0 })).toEqual({
			kind: 'retry',
			delayMs: 4_000,
		})
	})

	it('spreads the schedule over a day, then gives up', () => {
		const total = retrySchedule.reduce((sum, step) => sum + step, 0)
		expect(total).toBeGreaterThan(23 * 60 * 60_000)
		expect(total).toBeLessThan(24 * 60 * 60_000)
		expect(
			classifyAnswer(failed, { attempts: retrySchedule.length + 1, createdAt, now }),
		).toMatchObject({ kind: 'failed' })
	})
})
