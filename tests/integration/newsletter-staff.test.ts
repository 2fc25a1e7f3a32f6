// The staff's side of the newsletter over HTTP, with a real SMTP server, on both databases: each
// mail's figures, the preview served as mail is styled, a test send to oneself, the admins'
// subscribers list with its CSV import (a confirmation for the unconfirmed) and export, and the
// digest's hour; an editor sees the figures but not the list.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getDigestSchedule } from '#app/features/newsletter/newsletter-settings.server.ts'
import { getSiteSettings, saveSiteSettings } from '#app/features/site/site-settings.server.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { getPage, makeAccount, postForm, signIn, teamPassword } from '#tests/fixtures/forms.ts'
import { startSmtpServer, type TestSmtpServer } from '#tests/fixtures/smtp.ts'
import { databases } from '#tests/fixtures/storage.ts'

describe.each(databases)('newsletter for staff: $name', ({ create }) => {
	let app: TestApp
	let smtp: TestSmtpServer
	let admin: string

	beforeEach(async () => {
		smtp = await startSmtpServer()
		app = await startTestApp({
			database: create,
			smtpUrl: smtp.url,
			mail: { intervalMs: 50 },
			newsletter: { intervalMs: 50, ratePerSecond: 100 },
		})
		await makeAccount(app, 'rosa@example.org', 'admin', 'Rosa')
		admin = (await signIn(app, 'rosa@example.org', teamPassword)).cookie
	})
	afterEach(async () => {
		await app.close()
		await smtp.close()
	})

	async function importList(csv: string, fields: Record<string, string>) {
		const form = new FormData()
		form.set('intent', 'import')
		for (const [name, value] of Object.entries(fields)) form.set(name, value)
		form.set('file', new File([csv], 'readers.csv', { type: 'text/csv' }))
		return fetch(new URL('/admin/subscribers', app.url), {
			method: 'POST',
			headers: { Origin: app.url, Cookie: admin },
			body: form,
		})
	}

	it('says on the newsletter’s and the subscribers’ pages when mail is not set up, and only then', async () => {
		const notice = 'Mail is not set up: nothing is sent until SMTP_URL is set.'
		const page = async (at: TestApp, cookie: string, path: string) =>
			(await fetch(new URL(path, at.url), { headers: { Cookie: cookie } })).text()
		expect(await page(app, admin, '/admin/subscribers')).not.toContain(notice)
		const noMail = await startTestApp({ database: create })
		try {
			await makeAccount(noMail, 'rosa@example.org', 'admin', 'Rosa')
			const cookie = (await signIn(noMail, 'rosa@example.org', teamPassword)).cookie
			expect(await page(noMail, cookie, '/admin/subscribers')).toContain(notice)
			expect(await page(noMail, cookie, '/admin/newsletter')).toContain(notice)
		} finally {
			await noMail.close()
		}
	})

	it('imports a list with a consent statement, sends the unconfirmed a confirmation, and shows each mail’s figures', async () => {
		const refused = await importList('email\nana@example.org\n', {})
		expect(refused.status).toBe(400)
		expect(await refused.text()).toContain('consent')

		const imported = await importList('email\nana@example.org\nben@example.org\n', {
			consent: 'on',
			confirmed: 'on',
		})
		expect(imported.status).toBe(200)
		const pending = await importList('email\ncleo@example.org\n', { consent: 'on' })
		expect(pending.status).toBe(200)
		await smtp.waitFor(1)
		expect(smtp.received[0]?.to).toEqual(['cleo@example.org'])
		expect(smtp.received[0]?.subject).toContain('Confirm your subscription')

		const list = await (await getPage(app, '/admin/subscribers?status=confirmed', admin)).text()
		expect(list).toContain('ana@example.org')
		expect(list).toContain('ben@example.org')
		expect(list).not.toContain('cleo@example.org')
		const csv = await getPage(app, '/admin/subscribers/export', admin)
		expect(csv.headers.get('content-disposition')).toContain('subscribers.csv')
		const exported = await csv.text()
		expect(exported).toMatch(/ana@example\.org,confirmed,each,import/)
		expect(exported).toMatch(/cleo@example\.org,pending/)

		const created = await app.storage.articles.create(
			articleWrite({ slug: 'wetlands', title: 'Wetlands return to the valley' }),
		)
		if (!created.ok) throw new Error('publish failed')
		await smtp.waitFor(3)
		await expect
			.poll(
				async () => (await app.storage.newsletter.figuresOfArticle(created.saved.article.id)).sent,
			)
			.toBe(2)
		const page = await (await getPage(app, '/admin/newsletter', admin)).text()
		expect(page).toContain('Wetlands return to the valley')
		expect(page).toMatch(/<td data-label="Sent">2<\/td>/)
		expect(page).toMatch(/<strong>2<\/strong> confirmed/)

		// An editor sees the figures, not the addresses.
		await makeAccount(app, 'lea@example.org', 'editor', 'Lea')
		const editor = (await signIn(app, 'lea@example.org', teamPassword)).cookie
		expect((await getPage(app, '/admin/newsletter', editor)).status).toBe(200)
		expect((await getPage(app, '/admin/subscribers', editor)).status).toBe(403)
		expect((await getPage(app, '/admin/subscribers/export', editor)).status).toBe(403)
	})

	it('previews a mail as sent, sends a test to oneself, and sets the digest’s hour', async () => {
		const created = await app.storage.articles.create(
			articleWrite({
				slug: 'rivers',
				title: 'Rivers run clear again',
				email: false,
				publishedAt: new Date().toISOString(),
			}),
		)
		if (!created.ok) throw new Error('publish failed')
		const preview = await getPage(
			app,
			`/admin/newsletter/preview?article=${created.saved.article.id}`,
			admin,
		)
		expect(preview.status).toBe(200)
		expect(preview.headers.get('content-security-policy')).toContain(`style-src 'unsafe-inline'`)
		expect(preview.headers.get('content-security-policy')).toContain(`script-src 'none'`)
		expect(await preview.text()).toContain('Rivers run clear again')
		const text = await getPage(app, '/admin/newsletter/preview?digest&format=text', admin)
		expect(await text.text()).toContain('Rivers run clear again')

		const sent = await postForm(
			app,
			'/admin/newsletter',
			{ intent: 'test', article: String(created.saved.article.id) },
			{ cookie: admin },
		)
		expect(sent.status).toBe(200)
		await smtp.waitFor(1)
		expect(smtp.received[0]?.to).toEqual(['rosa@example.org'])
		expect(smtp.received[0]?.subject).toBe('[Test] Rivers run clear again')

		const badHour = await postForm(
			app,
			'/admin/newsletter',
			{ intent: 'schedule', day: '5', hour: '24' },
			{ cookie: admin },
		)
		expect(badHour.status).toBe(400)
		expect(await badHour.text()).toContain('Choose an hour from 0 to 23.')
		// A site that set the digest's own time zone before it had one of its own keeps it, as
		// the site's, until an admin sets the site's.
		await app.storage.settings.set({ 'newsletter.time_zone': 'Europe/Berlin' })
		expect((await getSiteSettings(app.storage)).timeZone).toBe('Europe/Berlin')
		expect((await getDigestSchedule(app.storage)).timeZone).toBe('Europe/Berlin')
		// One time zone for the site: the digest's hour is in the one Site settings sets, and a
		// zone sent with the schedule (as the old form did) changes nothing.
		await saveSiteSettings(app.storage, { timeZone: 'Europe/Lisbon' })
		const saved = await postForm(
			app,
			'/admin/newsletter',
			{ intent: 'schedule', day: '5', hour: '17', timeZone: 'Asia/Tokyo' },
			{ cookie: admin },
		)
		expect(saved.status).toBe(200)
		const page = await saved.text()
		expect(page).toContain('Fridays at 17:00 (Europe/Lisbon)')
		expect(page).toContain('In the site’s time zone, Europe/Lisbon')
		expect(await getDigestSchedule(app.storage)).toEqual({
			day: 5,
			hour: 17,
			timeZone: 'Europe/Lisbon',
		})
		await saveSiteSettings(app.storage, { timeZone: 'UTC' })
	})
})
