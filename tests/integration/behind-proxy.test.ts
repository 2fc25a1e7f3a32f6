// Canopy behind a proxy that ends TLS: the proxy speaks plain HTTP to Canopy and passes the
// visitor's Host on, while the visitor's browser sends an https: Origin with every form.
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { contactFields, pastForm } from '#tests/fixtures/contact.ts'

const publicHost = 'canopy.test'
const everyMessage = { box: 'inbox', limit: 10, offset: 0 } as const

/** A form POST as the proxy forwards it: the public Host, the browser's Origin. */
function postThroughProxy(
	app: TestApp,
	path: string,
	origin: string,
	form: Record<string, string>,
) {
	const body = new URLSearchParams(form).toString()
	return new Promise<{ status: number; body: string }>((resolve, reject) => {
		const req = request(
			`${app.url}${path}`,
			{
				method: 'POST',
				headers: {
					Host: publicHost,
					Origin: origin,
					'Content-Type': 'application/x-www-form-urlencoded',
					'Content-Length': Buffer.byteLength(body),
				},
			},
			(res) => {
				let text = ''
				res.setEncoding('utf8')
				res.on('data', (chunk) => {
					text += chunk
				})
				res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
			},
		)
		req.on('error', reject)
		req.end(body)
	})
}

describe('behind a proxy that ends TLS', () => {
	let app: TestApp
	beforeAll(async () => {
		app = await startTestApp({ siteUrl: `https://${publicHost}` })
	})
	afterAll(() => app.close())

	it('takes a form sent from the https: site', async () => {
		const identity = await pastForm(app.storage)
		const answer = await postThroughProxy(app, '/contact', `https://${publicHost}`, {
			...contactFields,
			...identity,
		})
		expect(answer.status).toBe(200)
		expect(answer.body).toContain('Thank you')
		const { items } = await app.storage.messages.list(everyMessage)
		expect(items.map((message) => message.subject)).toEqual([contactFields.subject])
	})

	it('still refuses a form sent from another site', async () => {
		const identity = await pastForm(app.storage)
		const answer = await postThroughProxy(app, '/contact', 'https://elsewhere.example', {
			...contactFields,
			...identity,
		})
		expect(answer.status).toBeGreaterThanOrEqual(400)
		expect(answer.status).toBeLessThan(500)
		expect((await app.storage.messages.list(everyMessage)).total).toBe(1)
	})
})
