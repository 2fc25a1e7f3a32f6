// The contact form over real HTTP: as a browser without JavaScript posts it, and as JSON.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import {
	contactFields,
	formIdentityIn,
	pastForm,
	postContactJson,
} from '#tests/fixtures/contact.ts'
import { getPage, postForm } from '#tests/fixtures/forms.ts'
import { startSmtpServer } from '#tests/fixtures/smtp.ts'
import { databases } from '#tests/fixtures/storage.ts'

// Each test writes from its own address (the app trusts the local proxy's X-Forwarded-For), so
// one test's submissions never count against another's rate limit.
let nextAddress = 10
const newAddress = () => `198.51.100.${nextAddress++}`

const confirmationOf = (html: string) =>
	/<div role="status" class="notice contact-sent"[\s\S]*?<\/div>/.exec(html)?.[0] ?? ''

/** The opening tag of the input or text area with this id. */
const tagOf = (html: string, id: string) =>
	new RegExp(`<(?:input|textarea)\\b[^>]*\\sid="${id}"[^>]*>`).exec(html)?.[0] ?? ''

/** Every byte the database holds: the SQLite file and its WAL, or each PostgreSQL row as text. */
async function everythingStored(app: TestApp): Promise<Buffer> {
	if (app.storage.dialect === 'sqlite') {
		const files = ['canopy.db', 'canopy.db-wal'].map((name) => join(app.env.DATA_DIR ?? '', name))
		return Buffer.concat(files.filter(existsSync).map((file) => readFileSync(file)))
	}
	const { db } = app.storage.authDatabase
	const tables = await sql<{ name: string }>`
		SELECT table_name AS name FROM information_schema.tables
		WHERE table_schema = current_schema()`.execute(db)
	const rows: string[] = []
	for (const { name } of tables.rows) {
		const dump = await sql<{
			row: string
		}>`SELECT t::text AS row FROM ${sql.table(name)} t`.execute(db)
		rows.push(...dump.rows.map((entry) => entry.row))
	}
	return Buffer.from(rows.join('\n'))
}

async function inbox(app: TestApp) {
	return (await app.storage.messages.list({ box: 'inbox', limit: 100, offset: 0 })).items
}

describe.each(databases)('contact on $name', ({ create }) => {
	describe('the contact form without JavaScript', () => {
		let app: TestApp
		beforeAll(async () => {
			// A second, not three: the minimum is the site's option, and a second keeps this quick.
			app = await startTestApp({
				trustProxy: '127.0.0.1',
				database: create,
				contactFormMinSeconds: 1,
			})
		})
		afterAll(() => app.close())

		function send(fields: Record<string, string>, ip: string) {
			return postForm(app, '/contact', fields, { headers: { 'X-Forwarded-For': ip } })
		}

		it('renders a form with its own key and token on every visit, never from the page cache', async () => {
			const first = await getPage(app, '/contact')
			expect(first.status).toBe(200)
			expect(first.headers.get('cache-control')).toBe('no-store')
			const html = await first.text()
			for (const label of ['Your name', 'Your email address', 'Subject (optional)', 'Your message'])
				expect(html).toContain(`>${label}</label>`)
			expect(html).toContain('hello@example.org')
			expect(html).toMatch(/<div class="visually-hidden" aria-hidden="true">/)
			const honeypot = tagOf(html, 'website')
			for (const attribute of ['name="website"', 'type="text"', 'tabindex="-1"', 'value=""'])
				expect(honeypot).toContain(attribute)
			expect(honeypot.toLowerCase()).toContain('autocomplete="off"')
			const one = formIdentityIn(html)
			const two = formIdentityIn(await (await getPage(app, '/contact')).text())
			expect(one.idempotencyKey).toMatch(/^[\w-]{36}$/)
			expect(one.token).toMatch(/^\d+\.[\w-]{43}$/)
			expect(two.idempotencyKey).not.toBe(one.idempotencyKey)
		})

		it('stores a message posted longer than the minimum time after the page was rendered, and confirms it', async () => {
			const ip = newAddress()
			const form = formIdentityIn(await (await getPage(app, '/contact')).text())
			await new Promise((resolve) => setTimeout(resolve, 1_100))
			const response = await send(
				{ ...contactFields, name: '  Ana Costa\u0007 ', ...form, website: '' },
				ip,
			)
			expect(response.status).toBe(200)
			const html = await response.text()
			expect(confirmationOf(html)).toContain('Thank you, Ana Costa. We have your message')
			// The confirmation in place of the form (the header's search form and the footer's
			// newsletter form stay).
			expect(html).not.toContain('name="message"')
			const stored = (await inbox(app)).filter(
				(message) => message.subject === contactFields.subject,
			)
			expect(stored).toHaveLength(1)
			expect(stored[0]).toMatchObject({ ...contactFields, name: 'Ana Costa', readAt: null })
		})

		it('shows each problem beside its field, keeping what was typed, and stores nothing', async () => {
			const before = (await inbox(app)).length
			const response = await send(
				{
					...(await pastForm(app.storage)),
					name: 'Ben <b>Bold</b>',
					email: 'ben@example',
					subject: '',
					message: 'Too short',
				},
				newAddress(),
			)
			expect(response.status).toBe(400)
			const html = await response.text()
			expect(html).toContain(
				'<p id="email-error" class="field-error">Enter an email address like name@example.org, so we can reply.</p>',
			)
			expect(html).toContain(
				'<p id="message-error" class="field-error">Write at least 10 characters, so we understand what you need.</p>',
			)
			expect(tagOf(html, 'email')).toContain('aria-invalid="true"')
			expect(tagOf(html, 'email')).toContain('aria-describedby="email-hint email-error"')
			expect(tagOf(html, 'message')).toContain('aria-describedby="message-hint message-error"')
			expect(tagOf(html, 'name')).not.toContain('aria-invalid')
			expect(tagOf(html, 'name')).toContain('value="Ben &lt;b&gt;Bold&lt;/b&gt;"')
			expect(tagOf(html, 'email')).toContain('value="ben@example"')
			expect(html).toMatch(/<textarea dir="auto" id="message"[^>]*>Too short<\/textarea>/)
			expect((await inbox(app)).length).toBe(before)
		})

		it('answers a filled honeypot, a too-fast post and a missing or tampered token like an accepted one, storing none', async () => {
			const before = (await inbox(app)).length
			const fields = { ...contactFields, subject: 'Robot test' }
			const accepted = await send({ ...fields, ...(await pastForm(app.storage)) }, newAddress())
			const acceptedHtml = await accepted.text()
			expect((await inbox(app)).length).toBe(before + 1)

			const fresh = formIdentityIn(await (await getPage(app, '/contact')).text())
			const past = await pastForm(app.storage)
			const [time, signature] = past.token.split('.')
			const robots = [
				{ ...past, website: 'https://spam.example' },
				fresh,
				{ idempotencyKey: past.idempotencyKey },
				{ ...past, token: `${Number(time) - 1}.${signature}` },
				{ ...past, token: `${time}.${'A'.repeat(43)}` },
				{ ...(await pastForm(app.storage)), idempotencyKey: crypto.randomUUID() },
			]
			for (const extra of robots) {
				const response = await send({ ...fields, ...extra }, newAddress())
				expect(response.status).toBe(accepted.status)
				expect(confirmationOf(await response.text())).toBe(confirmationOf(acceptedHtml))
			}
			expect(confirmationOf(acceptedHtml)).toContain('Thank you, Ana Costa')
			expect((await inbox(app)).length).toBe(before + 1)
		})

		it('stores a resubmitted form once, and confirms each time', async () => {
			const ip = newAddress()
			const form = await pastForm(app.storage)
			const fields = { ...contactFields, subject: 'Sent twice', ...form }
			const [first, second] = await Promise.all([send(fields, ip), send(fields, ip)])
			const third = await send(fields, ip)
			for (const response of [first, second, third]) {
				expect(response.status).toBe(200)
				expect(confirmationOf(await response.text())).toContain('We have your message')
			}
			expect((await inbox(app)).filter((message) => message.subject === 'Sent twice')).toHaveLength(
				1,
			)
		})

		it('refuses a sixth message in ten minutes from one address with 429, Retry-After and a readable page', async () => {
			const ip = newAddress()
			for (let i = 1; i <= 5; i++) {
				const response = await send(
					{ ...contactFields, subject: `Limit ${i}`, ...(await pastForm(app.storage)) },
					ip,
				)
				expect(response.status).toBe(200)
			}
			const refused = await send(
				{ ...contactFields, subject: 'Limit 6', ...(await pastForm(app.storage)) },
				ip,
			)
			expect(refused.status).toBe(429)
			const retryAfter = Number(refused.headers.get('retry-after'))
			expect(retryAfter).toBeGreaterThan(500)
			expect(retryAfter).toBeLessThanOrEqual(600)
			const html = await refused.text()
			expect(html).toContain(
				'You have sent several messages in a short time. Please wait 10 minutes, then send yours again: what you wrote is still here.',
			)
			expect(html).toContain('value="Limit 6"')
			const api = await postContactJson(
				app.url,
				{ ...contactFields, ...(await pastForm(app.storage)) },
				{ 'X-Forwarded-For': ip },
			)
			expect(api.status).toBe(429)
			expect(api.headers.get('retry-after')).toMatch(/^\d+$/)
			expect((await api.json()).error).toContain('Please wait')
			// Another address is not held back.
			const other = await send(
				{ ...contactFields, subject: 'Limit other', ...(await pastForm(app.storage)) },
				newAddress(),
			)
			expect(other.status).toBe(200)
			expect((await inbox(app)).filter((m) => m.subject.startsWith('Limit '))).toHaveLength(6)
		})

		it('refuses a body over 64 KB with 413, and an unreadable one with 400', async () => {
			const big = await send(
				{ ...contactFields, ...(await pastForm(app.storage)), message: 'x'.repeat(70_000) },
				newAddress(),
			)
			expect(big.status).toBe(413)
			expect(await big.json()).toEqual({ error: 'The request body is larger than 64 KB.' })

			const json = await fetch(`${app.url}/contact`, {
				method: 'POST',
				headers: { Origin: app.url, 'Content-Type': 'application/json' },
				body: '{"name":',
			})
			expect(json.status).toBe(400)
			expect(await json.text()).toContain('The form could not be read.')

			const multipart = new FormData()
			for (const [name, value] of Object.entries(await pastForm(app.storage)))
				multipart.set(name, value)
			multipart.set('name', new Blob(['not text']), 'name.txt')
			multipart.set('email', 'ana@example.org')
			multipart.set('message', contactFields.message)
			const file = await fetch(`${app.url}/contact`, {
				method: 'POST',
				headers: { Origin: app.url, 'X-Forwarded-For': newAddress() },
				body: multipart,
			})
			expect(file.status).toBe(400)
			expect(await file.text()).toContain('Enter your name.')
		})

		it('refuses a post from another site with 403', async () => {
			const response = await fetch(`${app.url}/contact`, {
				method: 'POST',
				headers: {
					Origin: 'https://evil.example',
					'Content-Type': 'application/x-www-form-urlencoded',
				},
				body: new URLSearchParams({ ...contactFields, ...(await pastForm(app.storage)) }),
			})
			expect(response.status).toBe(403)
			const api = await fetch(`${app.url}/api/contact`, {
				method: 'POST',
				headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
				body: JSON.stringify(contactFields),
			})
			expect(api.status).toBe(403)
		})

		it('never stores the visitor’s address, in any table', async () => {
			const ip = '203.0.113.219'
			for (let i = 0; i < 6; i++) {
				await send({ ...contactFields, ...(await pastForm(app.storage)) }, ip)
			}
			await send({ ...contactFields, ...(await pastForm(app.storage)), website: 'x' }, ip)
			await postContactJson(app.url, { ...contactFields }, { 'X-Forwarded-For': ip })
			const bytes = await everythingStored(app)
			expect(bytes.length).toBeGreaterThan(0)
			expect(bytes.includes('198.51.100.')).toBe(false)
			expect(bytes.includes(ip)).toBe(false)
			expect(bytes.includes(contactFields.message)).toBe(true)
			expect(JSON.stringify(app.logs)).not.toContain(ip)
		})
	})

	describe('the contact API', () => {
		let app: TestApp
		beforeAll(async () => {
			app = await startTestApp({
				seed: false,
				trustProxy: '127.0.0.1',
				database: create,
				contactFormMinSeconds: 1,
			})
		})
		afterAll(() => app.close())

		const post = (body: unknown, headers: Record<string, string> = {}) =>
			postContactJson(app.url, body, { 'X-Forwarded-For': newAddress(), ...headers })

		it('gives a key and a token, then stores the message once: 201, then 200 for the same key', async () => {
			const identity = await fetch(`${app.url}/api/contact`)
			expect(identity.headers.get('cache-control')).toBe('no-store')
			const { idempotencyKey, token, minimumWaitSeconds } = await identity.json()
			// The site's minimum (CONTACT_FORM_MIN_SECONDS=1 here; 3 by default).
			expect(minimumWaitSeconds).toBe(1)
			const body = { ...contactFields, subject: 'By API', idempotencyKey, token }
			// Sent at once, the token is too fresh: answered like an accepted one, not stored.
			const early = await post(body)
			expect(early.status).toBe(201)
			expect(await inbox(app)).toHaveLength(0)

			await new Promise((resolve) => setTimeout(resolve, 1_100))
			const first = await post(body)
			expect(first.status).toBe(201)
			const created = await first.json()
			expect(created).toEqual({ id: expect.any(Number), receivedAt: expect.any(String) })
			const again = await post({ ...body, message: 'A different text under the same key.' })
			expect(again.status).toBe(200)
			expect(await again.json()).toEqual(created)
			expect(await inbox(app)).toMatchObject([{ id: created.id, subject: 'By API' }])
		})

		it('answers field problems with 400 and field-level messages', async () => {
			const response = await post({
				...(await pastForm(app.storage)),
				name: 42,
				email: 'not an address',
				message: ['an', 'array'],
			})
			expect(response.status).toBe(400)
			expect(await response.json()).toEqual({
				errors: {
					name: ['Enter your name.'],
					email: ['Enter an email address like name@example.org, so we can reply.'],
					message: ['Write your message.'],
				},
			})
			const noKey = await post({ ...contactFields })
			expect(noKey.status).toBe(400)
			expect((await noKey.json()).errors.idempotencyKey).toEqual([
				'This form is out of date. Reload the page, then send your message again.',
			])
		})

		it('answers malformed requests with 400 or 415, and a big body with 413, never 500', async () => {
			const before = (await inbox(app)).length
			const cases: [BodyInit, string, number][] = [
				['{"name": "Ana",', 'application/json', 400],
				['[1, 2]', 'application/json', 400],
				['null', 'application/json', 400],
				['"text"', 'application/json', 400],
				['', 'application/json', 400],
				['name=Ana', 'application/x-www-form-urlencoded', 415],
				['{}', 'text/plain', 415],
				[
					JSON.stringify({ ...contactFields, message: 'x'.repeat(70_000) }),
					'application/json',
					413,
				],
			]
			for (const [body, type, status] of cases) {
				const response = await fetch(`${app.url}/api/contact`, {
					method: 'POST',
					headers: { Origin: app.url, 'Content-Type': type, 'X-Forwarded-For': newAddress() },
					body,
				})
				expect(response.status, `${type} ${String(body).slice(0, 20)}`).toBe(status)
				const answer = await response.json()
				expect(answer.error ?? answer.errors?.form?.[0]).toMatch(/^[A-Z].+\.$/)
			}
			expect(app.errors()).toEqual([])
			expect(await inbox(app)).toHaveLength(before)
		})
	})

	describe('the notification mail', () => {
		it('is not queued when mail is not set up', async () => {
			const app = await startTestApp({ seed: false, database: create })
			try {
				const response = await postContactJson(app.url, {
					...contactFields,
					...(await pastForm(app.storage)),
				})
				expect(response.status).toBe(201)
				expect(await inbox(app)).toHaveLength(1)
				expect(await app.storage.outbox.pending()).toEqual([])
			} finally {
				await app.close()
			}
		})

		it('reaches the site’s contact address through a real SMTP server, with a reply-to of the visitor', async () => {
			const smtp = await startSmtpServer()
			// A tick an hour away: the mail must leave because the submission woke the outbox.
			const app = await startTestApp({
				seed: false,
				database: create,
				smtpUrl: smtp.url,
				mail: { intervalMs: 60 * 60 * 1000 },
			})
			try {
				const response = await postContactJson(app.url, {
					...contactFields,
					...(await pastForm(app.storage)),
				})
				expect(response.status).toBe(201)
				await smtp.waitFor(1)
				const [arrived] = smtp.received
				expect(arrived?.to).toEqual(['hello@example.org'])
				expect(arrived?.subject).toBe('New message from Ana Costa: Saving the river meadow')
				expect(arrived?.replyTo).toBe('ana@example.org')
				expect(arrived?.text).toContain('Ana Costa <ana@example.org> wrote')
				expect(arrived?.text).toContain(contactFields.message)
			} finally {
				await app.close()
				await smtp.close()
			}
		})
	})
})
