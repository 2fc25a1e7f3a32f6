// The webhooks part of the storage contract (migration 0023): endpoints with the events they
// want; one delivery per wanting endpoint written in the very transaction of each event (an
// article published, updated, unpublished or deleted; a contact message; a confirmed
// subscriber; the same for a page, as page.*), nothing for drafts, disabled endpoints or a write
// that fails; deliveries
// leased to one worker at a time, retried, finished, resent and deleted when old, on both
// databases.
import { describe, expect, it } from 'vitest'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import type { ArticleWrite } from './port/articles.ts'
import {
	type WebhookEndpointInput,
	type WebhookEventType,
	webhookEventTypes,
} from './port/webhooks.ts'
import type { StorageHandle as Storage } from './storage-handle.ts'

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

describe.each(databases)('webhooks storage contract: $name', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	const endpoint = (overrides: Partial<WebhookEndpointInput> = {}) =>
		storage.webhooks.createEndpoint(
			{
				url: 'https://hooks.example.org/canopy',
				description: 'Automation',
				events: [...webhookEventTypes],
				enabled: true,
				...overrides,
			},
			secret,
			new Date(),
		)

	const soon = () => new Date(Date.now() + 1_000)

	/** Every delivery of the endpoint, oldest first, as [type, data]. */
	async function events(endpointId: number): Promise<[string, Record<string, unknown>][]> {
		const log = await storage.webhooks.deliveries(endpointId, { limit: 100 })
		return log.reverse().map((one) => [one.eventType, JSON.parse(one.payload)])
	}

	async function publish(overrides: Partial<ArticleWrite> = {}) {
		const created = await storage.articles.create(articleWrite(overrides))
		if (!created.ok) throw new Error('create failed')
		return created.saved.article
	}

	it('keeps endpoints with their events, and turning one on clears why it was off', async () => {
		const made = await endpoint({ events: ['contact.received', 'article.published'] })
		expect(made).toMatchObject({
			url: 'https://hooks.example.org/canopy',
			description: 'Automation',
			secret,
			events: ['article.published', 'contact.received'],
			enabled: true,
			disabledReason: null,
		})
		await storage.webhooks.disableEndpoint(made.id, 'The receiver answered 410 Gone.', new Date())
		expect(await storage.webhooks.findEndpoint(made.id)).toMatchObject({
			enabled: false,
			disabledReason: 'The receiver answered 410 Gone.',
		})
		const updated = await storage.webhooks.updateEndpoint(
			made.id,
			{
				url: 'https://other.example.org/',
				description: '',
				events: ['article.deleted'],
				enabled: true,
			},
			new Date(),
		)
		expect(updated).toMatchObject({
			url: 'https://other.example.org/',
			events: ['article.deleted'],
			enabled: true,
			disabledReason: null,
		})
		const firstSecret = made.secret
		const inADay = new Date(Date.now() + 86_400_000)
		const rotated = await storage.webhooks.rotateSecret(made.id, 'whsec_bmV3', new Date(), inADay)
		expect(rotated).toMatchObject({
			secret: 'whsec_bmV3',
			previousSecret: firstSecret,
			previousSecretUntil: inADay.toISOString(),
		})
		// Made anew again: the one just replaced overlaps; the first signs no more.
		const again = await storage.webhooks.rotateSecret(made.id, 'whsec_dGhpcmQ=', new Date(), inADay)
		expect(again).toMatchObject({ secret: 'whsec_dGhpcmQ=', previousSecret: 'whsec_bmV3' })
		const retired = await storage.webhooks.retirePreviousSecret(made.id, new Date())
		expect(retired).toMatchObject({ previousSecret: null, previousSecretUntil: null })
		// An overlap whose time is over is no overlap.
		const over = await storage.webhooks.rotateSecret(
			made.id,
			'whsec_Zm91cnRo',
			new Date(),
			new Date(Date.now() - 1),
		)
		expect(over).toMatchObject({ previousSecret: null, previousSecretUntil: null })
		// Its row still holds it until the hourly clean-up erases it.
		const holding = () =>
			storage.authDatabase.db
				.selectFrom('webhook_endpoints')
				.select('previous_secret')
				.where('id', '=', made.id)
				.executeTakeFirst()
		expect((await holding())?.previous_secret).toBe('whsec_dGhpcmQ=')
		expect(await storage.webhooks.eraseExpiredSecrets(new Date())).toBe(1)
		expect((await holding())?.previous_secret).toBeNull()
		expect(await storage.webhooks.eraseExpiredSecrets(new Date())).toBe(0)
		expect(await storage.webhooks.rotateSecret(999, 'whsec_eA==', new Date(), inADay)).toBe(
			undefined,
		)
		expect(await storage.webhooks.updateEndpoint(999, { ...made, enabled: true }, new Date())).toBe(
			undefined,
		)
		const [listed] = await storage.webhooks.listEndpoints()
		expect(listed).toMatchObject({ id: made.id, pending: 0, failed: 0, lastDelivery: null })
		expect(await storage.webhooks.deleteEndpoint(made.id)).toBe(true)
		expect(await storage.webhooks.deleteEndpoint(made.id)).toBe(false)
		expect(await storage.webhooks.listEndpoints()).toEqual([])
	})

	it('writes an article’s events with the saves that make them, a page’s as page.*, none for drafts', async () => {
		const all = await endpoint()
		const onlyPublished = await endpoint({ events: ['article.published'] })
		await endpoint({ enabled: false })

		const article = await publish({ slug: 'peatlands', title: 'Peatlands', language: 'es' })
		await publish({ slug: 'a-draft', status: 'draft', publishedAt: null })
		await publish({ slug: 'about', kind: 'page' })
		const updated = await storage.articles.update(article.id, article.version, {
			...articleWrite({ slug: 'peatlands', title: 'Peatlands, again' }),
			publishedAt: article.publishedAt,
		})
		if (!updated.ok) throw new Error('update failed')
		const unpublished = await storage.articles.update(article.id, updated.saved.article.version, {
			...articleWrite({ slug: 'peatlands', title: 'Peatlands, again' }),
			status: 'draft',
		})
		if (!unpublished.ok) throw new Error('unpublish failed')
		// Published again through the other path (saveBySlug, the CLI's), then deleted.
		await storage.articles.saveBySlug(articleWrite({ slug: 'peatlands', title: 'Back' }))
		expect(await storage.articles.deleteBySlug('peatlands')).not.toBeNull()
		// A draft deleted makes no event: readers never saw it.
		const draft = await storage.articles.findBySlug('a-draft')
		await storage.articles.deleteById(draft?.id ?? 0)

		const everything = await events(all.id)
		expect(everything.map(([type]) => type)).toEqual([
			'article.published',
			'page.published',
			'article.updated',
			'article.unpublished',
			'article.published',
			'article.deleted',
		])
		expect(everything[1]?.[1]).toMatchObject({ slug: 'about', status: 'published' })
		const seen = everything.filter(([type]) => type.startsWith('article.'))
		expect(seen.map(([type]) => type)).toEqual([
			'article.published',
			'article.updated',
			'article.unpublished',
			'article.published',
			'article.deleted',
		])
		const [[, first] = ['', {}], [, second] = ['', {}]] = seen
		expect(first).toEqual({
			id: article.id,
			slug: 'peatlands',
			title: 'Peatlands',
			summary: 'A short summary.',
			status: 'published',
			language: 'es',
			publishedAt: article.publishedAt,
			updatedAt: article.updatedAt,
		})
		expect(second).toMatchObject({ id: article.id, title: 'Peatlands, again' })
		expect(seen[2]?.[1]).toMatchObject({ status: 'draft' })
		expect(seen[4]?.[1]).toMatchObject({ id: article.id, title: 'Back', status: 'published' })
		expect((await events(onlyPublished.id)).map(([type]) => type)).toEqual([
			'article.published',
			'article.published',
		])
		// One webhook-id per event: the same on every endpoint it went to.
		const [firstOfAll] = (await storage.webhooks.deliveries(all.id, { limit: 100 })).reverse()
		const [firstOfOther] = (
			await storage.webhooks.deliveries(onlyPublished.id, { limit: 100 })
		).reverse()
		expect(firstOfAll?.messageId).toMatch(/^msg_[0-9a-f]{32}$/)
		expect(firstOfOther?.messageId).toBe(firstOfAll?.messageId)
	})

	it('writes nothing when the save fails, and publishes a scheduled article with its event', async () => {
		const all = await endpoint()
		await publish({ slug: 'taken' })
		expect((await storage.articles.create(articleWrite({ slug: 'taken' }))).ok).toBe(false)
		const at = new Date(Date.now() - 60_000).toISOString()
		await publish({ slug: 'scheduled', status: 'draft', publishedAt: null, publishAt: at })
		expect(await storage.articles.publishDue(new Date(), 10)).toHaveLength(1)
		expect((await events(all.id)).map(([type, data]) => [type, data.slug])).toEqual([
			['article.published', 'taken'],
			['article.published', 'scheduled'],
		])
	})

	it('writes no event for a save that asks for none (an import of old posts)', async () => {
		const all = await endpoint()
		await storage.articles.saveBySlug(articleWrite({ slug: 'imported', webhooks: false }))
		const created = await storage.articles.create(articleWrite({ slug: 'quiet', webhooks: false }))
		expect(created.ok).toBe(true)
		expect(await events(all.id)).toEqual([])
		await publish({ slug: 'loud' })
		expect((await events(all.id)).map(([, data]) => data.slug)).toEqual(['loud'])
	})

	it('writes a contact message’s event and a confirmed subscriber’s, once', async () => {
		const all = await endpoint()
		await storage.messages.create(
			{
				idempotencyKey: 'k1',
				name: 'Ada',
				email: 'ada@example.org',
				subject: 'Peat',
				message: 'Hello',
			},
			[],
		)
		// The same message sent twice is one message and one event.
		await storage.messages.create(
			{
				idempotencyKey: 'k1',
				name: 'Ada',
				email: 'ada@example.org',
				subject: 'Peat',
				message: 'Hello',
			},
			[],
		)
		const { subscriber } = await storage.newsletter.subscribe(
			'Reader@Example.org',
			'form',
			new Date(),
		)
		await storage.newsletter.confirm(subscriber.id, new Date())
		await storage.newsletter.confirm(subscriber.id, new Date())
		const seen = await events(all.id)
		expect(seen.map(([type]) => type)).toEqual(['contact.received', 'subscriber.added'])
		expect(seen[0]?.[1]).toMatchObject({
			name: 'Ada',
			email: 'ada@example.org',
			subject: 'Peat',
			message: 'Hello',
		})
		expect(seen[0]?.[1].receivedAt).toEqual(expect.any(String))
		expect(seen[1]?.[1]).toMatchObject({
			id: subscriber.id,
			email: 'reader@example.org',
			source: 'form',
			cadence: 'each',
			tagIds: [],
		})
	})

	it('writes a page’s events as page.*, to the endpoints that want them', async () => {
		const pages = await endpoint({
			events: ['page.published', 'page.updated', 'page.unpublished', 'page.deleted'],
		})
		const articlesOnly = await endpoint({ events: ['article.published', 'article.deleted'] })
		const page = await publish({ slug: 'donate', title: 'Donate', kind: 'page' })
		const updated = await storage.articles.update(page.id, page.version, {
			...articleWrite({ slug: 'donate', title: 'Donate today', kind: 'page' }),
			publishedAt: page.publishedAt,
		})
		if (!updated.ok) throw new Error('update failed')
		const drafted = await storage.articles.update(page.id, updated.saved.article.version, {
			...articleWrite({ slug: 'donate', title: 'Donate today', kind: 'page' }),
			status: 'draft',
		})
		if (!drafted.ok) throw new Error('unpublish failed')
		await storage.articles.saveBySlug(articleWrite({ slug: 'donate', title: 'Give', kind: 'page' }))
		expect(await storage.articles.deleteBySlug('donate')).not.toBeNull()
		const seen = await events(pages.id)
		expect(seen.map(([type]) => type)).toEqual([
			'page.published',
			'page.updated',
			'page.unpublished',
			'page.published',
			'page.deleted',
		])
		expect(seen[1]?.[1]).toMatchObject({ id: page.id, slug: 'donate', title: 'Donate today' })
		expect(await events(articlesOnly.id)).toEqual([])
	})

	it('hands the worker the secrets to sign with: the new one, and the old one while they overlap', async () => {
		const on = await endpoint({ events: ['article.published'] })
		const until = new Date(Date.now() + 3_600_000)
		await storage.webhooks.rotateSecret(on.id, 'whsec_bmV3', new Date(), until)
		await publish()
		const [during] = await storage.webhooks.claimDue(soon(), 60_000, 10)
		expect(during?.endpoint.secrets).toEqual(['whsec_bmV3', secret])
		// Claimed again after its lease, once the overlap is over: the new secret alone.
		const after = new Date(until.getTime() + 1_000)
		const [later] = await storage.webhooks.claimDue(after, 60_000, 10)
		expect(later?.id).toBe(during?.id)
		expect(later?.endpoint.secrets).toEqual(['whsec_bmV3'])
	})

	it('leases a delivery to one worker at a time; retried, delivered, failed, resent', async () => {
		const on = await endpoint({ events: ['article.published'] })
		await publish()
		await publish()
		await publish()
		const [a, b] = await Promise.all([
			storage.webhooks.claimDue(soon(), 60_000, 2),
			storage.webhooks.claimDue(soon(), 60_000, 2),
		])
		const ids = [...(a ?? []), ...(b ?? [])].map((one) => one.id)
		expect(ids).toHaveLength(3)
		expect(new Set(ids).size).toBe(3)
		const [first] = a?.length ? a : (b ?? [])
		expect(first).toMatchObject({
			attempts: 1,
			eventType: 'article.published',
			endpoint: { id: on.id, url: on.url, secrets: [secret] },
		})
		// Leased: nobody takes them again until the lease runs out.
		expect(await storage.webhooks.claimDue(soon(), 60_000, 10)).toEqual([])

		const [x = 0, y = 0, z = 0] = ids
		const attempt = (status: number | null) => ({
			status,
			error: status ? null : 'refused',
			durationMs: 12.4,
		})
		await storage.webhooks.markDelivered(x, attempt(204), new Date())
		await storage.webhooks.markFailed(y, attempt(500), new Date())
		await storage.webhooks.retryLater(z, attempt(null), new Date(Date.now() + 60_000))
		expect(await storage.webhooks.claimDue(soon(), 60_000, 10)).toEqual([])
		const retried = await storage.webhooks.claimDue(new Date(Date.now() + 61_000), 60_000, 10)
		expect(retried.map((one) => [one.id, one.attempts, one.lastError])).toEqual([[z, 2, 'refused']])

		const log = await storage.webhooks.deliveries(on.id, { limit: 10 })
		expect(log.find((one) => one.id === x)).toMatchObject({
			state: 'delivered',
			lastStatus: 204,
			lastDurationMs: 12,
			finishedAt: expect.any(String),
		})
		expect(await storage.webhooks.deliveries(on.id, { limit: 10, before: y })).toHaveLength(
			[x, y, z].filter((id) => id < y).length,
		)
		const quiet = await endpoint({ events: ['contact.received'] })
		const [summary, other] = await storage.webhooks.listEndpoints()
		expect(summary).toMatchObject({ id: on.id, pending: 1, failed: 1 })
		// Its newest finished delivery, whichever of the two finished ones was written last.
		expect(summary?.lastDelivery).toMatchObject(
			x > y ? { state: 'delivered', status: 204 } : { state: 'failed', status: 500 },
		)
		expect(other).toMatchObject({ id: quiet.id, pending: 0, failed: 0, lastDelivery: null })

		// A failed one can be sent again, with its webhook-id; a delivered one cannot.
		expect(await storage.webhooks.resend(on.id, x, new Date())).toBe(false)
		expect(await storage.webhooks.resend(on.id + 1, y, new Date())).toBe(false)
		const original = (await storage.webhooks.deliveries(on.id, { limit: 10 })).find(
			(one) => one.id === y,
		)
		expect(await storage.webhooks.resend(on.id, y, new Date())).toBe(true)
		const again = await storage.webhooks.claimDue(soon(), 60_000, 10)
		expect(again.map((one) => [one.id, one.attempts, one.state])).toEqual([[y, 1, 'pending']])
		// The event keeps its time and webhook-id; its new day counts from the resend.
		expect(again[0]).toMatchObject({
			createdAt: original?.createdAt,
			messageId: original?.messageId,
		})
		expect(again[0]?.resentAt).toEqual(expect.any(String))
	})

	it('fails what a turned-off endpoint had waiting; tests go to one endpoint; old ones go', async () => {
		const on = await endpoint({ events: ['article.published'] })
		const other = await endpoint({ events: ['article.published'] })
		const gone = await endpoint({ events: ['article.published'] })
		await publish()
		// Turned off by an admin, or by a 410: what waited fails, and is never sent.
		await storage.webhooks.updateEndpoint(other.id, { ...other, enabled: false }, new Date())
		await storage.webhooks.disableEndpoint(gone.id, 'The receiver answered 410 Gone.', new Date())
		for (const off of [other, gone])
			expect(await storage.webhooks.deliveries(off.id, { limit: 10 })).toMatchObject([
				{ state: 'failed', lastError: 'The endpoint was turned off before it went.' },
			])
		const claimed = await storage.webhooks.claimDue(soon(), 60_000, 10)
		expect(claimed.map((one) => one.endpointId)).toEqual([on.id])

		const test = await storage.webhooks.queueTest(on.id, { hello: 'world' }, new Date())
		expect(test).toMatchObject({ endpointId: on.id, eventType: 'webhook.test', state: 'pending' })
		expect(JSON.parse(test?.payload ?? '')).toEqual({ hello: 'world' })
		expect(await storage.webhooks.queueTest(999, {}, new Date())).toBeUndefined()

		await storage.webhooks.markDelivered(
			claimed[0]?.id ?? 0,
			{ status: 200, error: null, durationMs: 3 },
			new Date(),
		)
		expect(await storage.webhooks.deleteFinished(new Date(Date.now() - 60_000))).toBe(0)
		expect(await storage.webhooks.deleteFinished(new Date(Date.now() + 60_000))).toBe(3)
		// The waiting one stays, whatever its age.
		expect(await storage.webhooks.deliveries(on.id, { limit: 10 })).toHaveLength(1)
		const queues = await storage.operations.queues(new Date())
		expect(queues.find((queue) => queue.queue === 'webhooks')?.waiting).toBe(1)
		// Deleting the endpoint deletes its deliveries.
		await storage.webhooks.deleteEndpoint(on.id)
		expect(await storage.webhooks.deliveries(on.id, { limit: 10 })).toEqual([])
	})

	it('keeps only known event types on an endpoint', async () => {
		const made = await endpoint({
			events: ['article.published', 'article.published', 'nonsense' as WebhookEventType],
		})
		expect(made.events).toEqual(['article.published'])
	})
})
