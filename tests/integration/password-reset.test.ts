// Password reset: asked for by mail (a real SMTP server on a local port receives it) or made by
// an admin; one-time links kept hashed; every session ends.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import {
	getPage,
	isSignedIn,
	makeAccount,
	postForm,
	signIn,
	teamPassword,
} from '#tests/fixtures/forms.ts'
import { startSmtpServer, type TestSmtpServer } from '#tests/fixtures/smtp.ts'

const newPassword = 'peat bogs store carbon 34'

/** The reset link in a mail body (quoted-printable soft breaks undone). */
function linkInMail(raw: string): string {
	const body = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
	const link = /(http:\/\/\S+\/admin\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(body)?.[1]
	if (!link) throw new Error(`No reset link in the mail:\n${raw}`)
	return link
}

describe('password reset by mail', () => {
	let app: TestApp
	let smtp: TestSmtpServer

	beforeEach(async () => {
		smtp = await startSmtpServer()
		app = await startTestApp({
			seed: false,
			smtpUrl: `${smtp.url}?from=canopy@example.org`,
			trustProxy: '127.0.0.1',
		})
		await makeAccount(app, 'ana@example.org', 'editor', 'Ana')
	})
	afterEach(async () => {
		await app.close()
		await smtp.close()
	})

	const ask = (email: string, ip = '198.51.100.1') =>
		postForm(app, '/admin/forgot-password', { email }, { headers: { 'X-Forwarded-For': ip } })

	it('answers the same for an account and for an unknown address, and mails only the account', async () => {
		const known = await ask('Ana@example.org')
		const unknown = await ask('nobody@example.org')
		expect(known.status).toBe(200)
		expect(unknown.status).toBe(200)
		const [knownHtml, unknownHtml] = [await known.text(), await unknown.text()]
		const answer = (html: string) => /<div role="status"[^>]*>(.*?)<\/div>/s.exec(html)?.[1]
		expect(answer(knownHtml)).toContain('If an account exists for that address')
		expect(answer(unknownHtml)).toBe(answer(knownHtml))

		await smtp.waitFor(1)
		await new Promise((resolve) => setTimeout(resolve, 300))
		expect(smtp.received).toHaveLength(1)
		expect(smtp.received[0]?.to).toEqual(['ana@example.org'])
		expect(smtp.received[0]?.raw).toContain('From: canopy@example.org')
		// Through the outbox (retried if refused); nothing was queued for the unknown address.
		const queued = () =>
			app.storage.authDatabase.db
				.selectFrom('mail_outbox')
				.select(['kind', 'recipient', 'sent_at'])
				.execute()
		expect(await queued()).toMatchObject([{ kind: 'password-reset', recipient: 'ana@example.org' }])
		// Marked sent once the worker hears the server's answer, just after the server has it.
		await expect.poll(async () => (await queued())[0]?.sent_at ?? null).not.toBeNull()
	})

	it('mails a link that works once, is kept only hashed, and signs out every session', async () => {
		const phone = await signIn(app, 'ana@example.org', teamPassword)
		expect(await isSignedIn(app, phone.cookie)).toBe(true)
		await ask('ana@example.org')
		await smtp.waitFor(1)
		const link = linkInMail(smtp.received[0]?.raw ?? '')
		const token = new URL(link).searchParams.get('token') ?? ''

		const stored = await app.storage.authDatabase.db
			.selectFrom('verification' as never)
			.selectAll()
			.execute()
		expect(stored).toHaveLength(1)
		expect(JSON.stringify(stored)).not.toContain(token)

		expect((await fetch(link)).status).toBe(200)
		const weak = await postForm(app, link, { password: 'qwertyuiop' })
		expect(weak.status).toBe(400)
		expect(await weak.text()).toContain('This is one of the most common passwords')

		const reset = await postForm(app, link, { password: newPassword })
		expect(reset.status).toBe(302)
		expect(reset.headers.get('location')).toBe('/admin/sign-in?reset=done')
		const notice = await (await getPage(app, '/admin/sign-in?reset=done')).text()
		expect(notice).toContain('Your password is changed')
		expect(await isSignedIn(app, phone.cookie)).toBe(false)
		expect((await signIn(app, 'ana@example.org', teamPassword)).status).toBe(401)
		expect((await signIn(app, 'ana@example.org', newPassword)).status).toBe(302)

		const again = await postForm(app, link, { password: 'another fine password 5' })
		expect(again.status).toBe(403)
		expect(await again.text()).toContain('This reset link does not work')
		expect((await signIn(app, 'ana@example.org', newPassword)).status).toBe(302)
	})

	it('lets the owner in at once after a reset, from the address their wrong guesses came from', async () => {
		// Five wrong guesses from the owner's own address fill both limits: the account's and the
		// address's (better-auth's). The right password is then refused too.
		const home = { 'X-Forwarded-For': '198.51.100.7' }
		for (let guess = 0; guess < 5; guess++)
			expect((await signIn(app, 'ana@example.org', 'a wrong guess 42', home)).status).toBe(401)
		expect((await signIn(app, 'ana@example.org', teamPassword, home)).status).toBe(429)

		await ask('ana@example.org', '198.51.100.7')
		await smtp.waitFor(1)
		const link = linkInMail(smtp.received[0]?.raw ?? '')
		const reset = await postForm(app, link, { password: newPassword }, { headers: home })
		expect(reset.status).toBe(302)
		expect((await signIn(app, 'ana@example.org', newPassword, home)).status).toBe(302)
	})

	it('limits requests per address asked about and per visitor, with Retry-After', async () => {
		const statuses: number[] = []
		for (let attempt = 0; attempt < 6; attempt++) {
			statuses.push((await ask('nobody@example.org', `198.51.100.${attempt + 1}`)).status)
		}
		expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
		const fromOneVisitor: Response[] = []
		for (let attempt = 0; attempt < 6; attempt++) {
			fromOneVisitor.push(await ask(`person${attempt}@example.org`, '203.0.113.9'))
		}
		const last = fromOneVisitor.at(-1)
		expect(fromOneVisitor.map((response) => response.status)).toEqual([
			200, 200, 200, 200, 200, 429,
		])
		expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0)
		expect(await last?.text()).toMatch(/Too many requests\. Try again in \d+ minutes\./)
	})

	it('refuses an expired reset link', async () => {
		await ask('ana@example.org')
		await smtp.waitFor(1)
		const link = linkInMail(smtp.received[0]?.raw ?? '')
		await app.storage.authDatabase.db
			.updateTable('verification' as never)
			.set({ expiresAt: new Date(Date.now() - 1_000).toISOString() } as never)
			.execute()
		expect((await fetch(link)).status).toBe(403)
		expect((await postForm(app, link, { password: newPassword })).status).toBe(403)
		expect((await signIn(app, 'ana@example.org', teamPassword)).status).toBe(302)
	})
})

describe('password reset without mail', () => {
	let app: TestApp

	beforeEach(async () => {
		app = await startTestApp({ seed: false })
	})
	afterEach(async () => {
		await app.close()
	})

	it('tells the visitor to ask an admin, who makes a link on the team page', async () => {
		const page = await (await getPage(app, '/admin/forgot-password')).text()
		expect(page).toContain('Ask an admin on your team for a password reset link')
		expect(page).not.toContain('name="email"')

		await makeAccount(app, 'rosa@example.org', 'admin', 'Rosa')
		const anaId = await makeAccount(app, 'ana@example.org', 'editor', 'Ana')
		const rosa = (await signIn(app, 'rosa@example.org', teamPassword)).cookie
		const made = await postForm(
			app,
			'/admin/team',
			{ intent: 'reset-link', userId: anaId },
			{ cookie: rosa },
		)
		expect(made.status).toBe(200)
		const html = await made.text()
		expect(html).toContain('Password reset link for ana@example.org')
		const link = /value="(http[^"]*\/admin\/reset-password\?token=[A-Za-z0-9_-]+)"/.exec(html)?.[1]
		expect(link).toBeDefined()
		expect((await postForm(app, link ?? '', { password: newPassword })).status).toBe(302)
		expect((await signIn(app, 'ana@example.org', newPassword)).status).toBe(302)
	})
})
