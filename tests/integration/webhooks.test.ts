// Webhooks as an admin and a receiver meet them, over real HTTP on both databases: the admin
// page refuses an address on this machine until the setting allows it, the endpoint is added
// with a secret, an article published through the Admin API reaches the receiver signed (checked
// with the Standard Webhooks reference library), the log shows it, and a test event follows.
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callApi, makeKey, makeUser, signIn } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { getPage } from '#tests/fixtures/forms.ts'
import { databases } from '#tests/fixtures/storage.ts'
import { startWebhookReceiver, type WebhookReceiver } from '#tests/fixtures/webhook-receiver.ts'

describe.each(databases)('webhooks: $name', ({ create }) => {
	let app: TestApp
	let receiver: WebhookReceiver
	let cookie: string
	let key: string

	beforeAll(async () => {
		app = await startTestApp({ seed: false, database: create, webhooks: { intervalMs: 100 } })
		const admin = await makeUser(app, 'ada@example.org', 'admin', 'Ada Admin')
		cookie = await signIn(app, 'ada@example.org')
		key = await makeKey(app, admin)
		receiver = await startWebhookReceiver()
	})
	afterAll(async () => {
		await receiver?.close()
		await app?.close()
	})

	/** A post of a webhooks page's form, as a browser without JavaScript sends it. */
	function post(path: string, fields: [string, string][]) {
		return fetch(new URL(path, app.url), {
			method: 'POST',
			redirect: 'manual',
			headers: {
				Origin: app.url,
				Cookie: cookie,
				'Content-Type': 'application/x-www-form-urlencoded',
			},
			body: new URLSearchParams(fields),
		})
	}

	it('delivers a published article, signed, to an endpoint an admin added', async () => {
		const endpoint: [string, string][] = [
			['intent', 'create'],
			['url', `${receiver.url}/canopy`],
			['description', 'Automation'],
			['events', 'article.published'],
			['events', 'contact.received'],
			['enabled', 'on'],
		]
		// This machine is refused until the setting allows it, with the reason by the field.
		const refused = await post('/admin/webhooks', endpoint)
		expect(refused.status).toBe(400)
		expect(await refused.text()).toContain('when the webhook settings allow them')
		const noEvents = await post(
			'/admin/webhooks',
			endpoint.filter(([name]) => name !== 'events'),
		)
		expect(noEvents.status).toBe(400)
		expect(await noEvents.text()).toContain('Choose at least one event.')

		const setting = await post('/admin/webhooks', [
			['intent', 'settings'],
			['allowPrivate', 'on'],
		])
		expect(setting.status).toBe(200)
		const added = await post('/admin/webhooks', endpoint)
		expect(added.status).toBe(302)
		const page = added.headers.get('location') ?? ''
		expect(page).toMatch(/^\/admin\/webhooks\/\d+\?created=1$/)
		const html = await (await getPage(app, page, cookie)).text()
		const secret = /whsec_[A-Za-z0-9+/=]+/.exec(html)?.[0] ?? ''
		expect(secret).toHaveLength(6 + 32)

		const published = await callApi(
			app,
			'/api/admin/articles',
			{ key },
			{
				method: 'POST',
				body: {
					title: 'Peatlands hold a third of soil carbon',
					summary: 'Why wet peat matters.',
					body: 'Peat.',
					intent: 'publish',
				},
			},
		)
		expect(published.status).toBe(201)
		const { article } = (await published.json()) as { article: { id: number; slug: string } }
		const [got] = await receiver.waitFor(1)
		expect(got?.path).toBe('/canopy')
		const event = new Webhook(secret).verify(
			got?.body ?? '',
			got?.headers as Record<string, string>,
		)
		expect(event).toMatchObject({
			type: 'article.published',
			data: {
				id: article.id,
				title: 'Peatlands hold a third of soil carbon',
				url: `${app.url}/articles/${article.slug}`,
			},
		})

		// The log shows it delivered; the test button sends one more.
		const id = page.split('/').pop()?.split('?')[0] ?? ''
		// The worker records the receiver's answer just after the receiver has the event.
		let log = ''
		for (let tries = 0; tries < 50 && !log.includes('Delivered'); tries++) {
			if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 100))
			log = await (await getPage(app, `/admin/webhooks/${id}`, cookie)).text()
		}
		expect(log).toContain('Delivered')
		expect(log).toContain('204')
		expect((await post(`/admin/webhooks/${id}`, [['intent', 'test']])).status).toBe(200)
		const [, test] = await receiver.waitFor(2)
		expect(JSON.parse(test?.body ?? '{}')).toMatchObject({ type: 'webhook.test' })
		expect(test?.headers['webhook-id']).not.toBe(got?.headers['webhook-id'])

		// An event it does not want is not sent.
		await callApi(app, `/api/admin/articles/${article.id}/unpublish`, { key }, { method: 'POST' })
		await new Promise((resolve) => setTimeout(resolve, 500))
		expect(receiver.received).toHaveLength(2)
	})

	it('answers an unknown endpoint 404, and keeps the list’s secrets off the list page', async () => {
		expect((await getPage(app, '/admin/webhooks/99999', cookie)).status).toBe(404)
		expect((await getPage(app, '/admin/webhooks/abc', cookie)).status).toBe(404)
		// With a new secret made, the old one, still signing, is in no page either.
		const [made] = await app.storage.webhooks.listEndpoints()
		const id = made?.id ?? 0
		expect((await post(`/admin/webhooks/${id}`, [['intent', 'rotate']])).status).toBe(200)
		const rotated = await app.storage.webhooks.findEndpoint(id)
		expect(rotated?.previousSecret).toBe(made?.secret)
		const list = await (await getPage(app, '/admin/webhooks', cookie)).text()
		expect(list).toContain(`${receiver.url}/canopy`)
		expect(list).not.toContain('whsec_')
		const own = await (await getPage(app, `/admin/webhooks/${id}`, cookie)).text()
		expect(own).toContain(rotated?.secret)
		expect(own).not.toContain(made?.secret)

		// Deleted, it is named on the list by its host only: the whole address (which may carry a
		// token) goes into no page address.
		const deleted = await post(`/admin/webhooks/${id}`, [['intent', 'delete']])
		expect(deleted.status).toBe(302)
		const host = new URL(receiver.url).host
		const to = deleted.headers.get('location') ?? ''
		expect(to).toBe(`/admin/webhooks?${new URLSearchParams({ deleted: host })}`)
		expect(await (await getPage(app, to, cookie)).text()).toContain(
			`The endpoint at ${host} is deleted: no more events go to it.`,
		)
	})
})
