// The newsletter end to end over HTTP with a real SMTP server on a local port, on both databases:
// subscribing without JavaScript, the confirmation mail and its link, the same answer for known
// and unknown addresses, a published article arriving as an HTML mail with RFC 8058 headers, the
// one-click unsubscribe, preferences, the weekly digest, and refusals suspending an address.
import { afterEach, describe, expect, it } from 'vitest'
import { latestSlot, makeDueDigest } from '#app/features/newsletter/digest.server.ts'
import { saveDigestSchedule } from '#app/features/newsletter/newsletter-settings.server.ts'
import { saveSiteSettings } from '#app/features/site/site-settings.server.ts'
import type { ArticleWrite } from '#storage/port/articles.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { getPage, postForm } from '#tests/fixtures/forms.ts'
import {
	linkIn,
	mailSource,
	type ReceivedMail,
	startSmtpServer,
	type TestSmtpServer,
} from '#tests/fixtures/smtp.ts'
import { databases } from '#tests/fixtures/storage.ts'

async function until(check: () => Promise<boolean> | boolean, withinMs = 5_000) {
	const deadline = Date.now() + withinMs
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error('timed out')
		await new Promise((resolve) => setTimeout(resolve, 25))
	}
}

describe.each(databases)('newsletter: $name', ({ create }) => {
	let app: TestApp | undefined
	let smtp: TestSmtpServer | undefined
	/** How far the delivery worker's clock runs ahead of the real one (the digest's hour). */
	let ahead = 0

	afterEach(async () => {
		await app?.close()
		await smtp?.close()
		app = undefined
		smtp = undefined
		ahead = 0
	})

	async function start(refuse?: (attempt: number) => number | undefined, suspendAfter = 3) {
		smtp = await startSmtpServer({ refuse })
		app = await startTestApp({
			database: create,
			seed: false,
			smtpUrl: smtp.url,
			mail: { intervalMs: 50 },
			newsletter: {
				clock: () => new Date(Date.now() + ahead),
				intervalMs: 50,
				suspendAfter,
				ratePerSecond: 100,
				retry: { baseMs: 50, maxMs: 100 },
			},
		})
		return { app, smtp }
	}

	async function publish(overrides: Partial<ArticleWrite> = {}) {
		const created = await app?.storage.articles.create(articleWrite(overrides))
		if (!created?.ok) throw new Error('create failed')
		return created.saved.article
	}

	/** Subscribes `email` through the form and follows the confirmation link; returns its mail. */
	async function subscribeAndConfirm(email: string) {
		const site = app as TestApp
		const server = smtp as TestSmtpServer
		const before = server.received.length
		const asked = await postForm(site, '/newsletter', { email, website: '' })
		expect(asked.status).toBe(200)
		await server.waitFor(before + 1)
		const confirmation = server.received[before] as ReceivedMail
		const confirmed = await getPage(site, linkIn(confirmation, '/newsletter/confirm'))
		expect(confirmed.status).toBe(200)
		const page = await confirmed.text()
		expect(page).toContain('You are subscribed')
		// The page offers the reader's own preferences link.
		const preferences = /\/newsletter\/preferences\?token=[\w.%-]+/.exec(page)?.[0] ?? ''
		return { confirmation, preferences }
	}

	it('subscribes without JavaScript, confirms by mail, and mails the next article with a working one-click unsubscribe', async () => {
		const { app, smtp } = await start()
		const asked = await postForm(app, '/newsletter', { email: 'Reader@Example.org', website: '' })
		expect(asked.status).toBe(200)
		const page = await asked.text()
		expect(page).toContain('Check your inbox')
		// Nothing but the confirmation is sent before the link is followed.
		await publish({ slug: 'too-early' })
		await smtp.waitFor(1)
		await new Promise((resolve) => setTimeout(resolve, 300))
		expect(smtp.received).toHaveLength(1)
		const confirmation = smtp.received[0] as ReceivedMail
		expect(confirmation.to).toEqual(['reader@example.org'])
		expect(confirmation.subject).toContain('Confirm your subscription')
		expect(confirmation.headers['content-type']).toContain('multipart/alternative')
		const confirmUrl = linkIn(confirmation, '/newsletter/confirm')
		const confirmed = await getPage(app, confirmUrl)
		expect(confirmed.status).toBe(200)
		expect(confirmed.headers.get('cache-control')).toBe('no-store')
		expect(await app.storage.newsletter.findByEmail('reader@example.org')).toMatchObject({
			status: 'confirmed',
		})

		const article = await publish({ slug: 'peatlands', title: 'Торфяники: why peat matters' })
		await smtp.waitFor(2)
		const mail = smtp.received[1] as ReceivedMail
		expect(mail.to).toEqual(['reader@example.org'])
		expect(mailSource(mail)).toContain('Торфяники')
		expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
		const header = /<(https?:[^>]+)>/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1] ?? ''
		expect(header).toContain('/newsletter/unsubscribe?token=')
		expect(mailSource(mail)).toContain(linkIn(mail, '/newsletter/unsubscribe'))
		expect(mailSource(mail)).toContain(`/articles/${article.slug}`)
		await until(async () => (await app.storage.newsletter.figuresOfArticle(article.id)).sent === 1)

		// A mail program's one-click POST: no Origin, no cookie, the body RFC 8058 names.
		const clicked = await fetch(header, {
			method: 'POST',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			body: 'List-Unsubscribe=One-Click',
		})
		expect(clicked.status).toBe(200)
		expect(await app.storage.newsletter.findByEmail('reader@example.org')).toMatchObject({
			status: 'unsubscribed',
		})
		await publish({ slug: 'after-leaving' })
		await new Promise((resolve) => setTimeout(resolve, 300))
		expect(smtp.received).toHaveLength(2)
	})

	it('answers the same for a known and an unknown address, and refuses a malformed one with a field message', async () => {
		const { app, smtp } = await start()
		await subscribeAndConfirm('known@example.org')
		const sent = smtp.received.length
		const text = async (email: string) =>
			(await (await postForm(app, '/newsletter', { email, website: '' })).text())
				.replaceAll(email, 'ADDRESS')
				.replace(/nonce="[^"]+"/g, '')
		expect(await text('known@example.org')).toBe(await text('stranger@example.org'))
		// The known, confirmed address got nothing; the stranger got one confirmation.
		await smtp.waitFor(sent + 1)
		await new Promise((resolve) => setTimeout(resolve, 200))
		expect(smtp.received.slice(sent).map((m) => m.to[0])).toEqual(['stranger@example.org'])
		const bad = await postForm(app, '/newsletter', { email: 'not an address', website: '' })
		expect(bad.status).toBe(400)
		expect(await bad.text()).toContain('Enter an email address like name@example.org.')
		// A robot filling the honeypot is answered alike, and nothing is stored.
		const robot = await postForm(app, '/newsletter', { email: 'bot@example.org', website: 'x' })
		expect(robot.status).toBe(200)
		expect(await app.storage.newsletter.findByEmail('bot@example.org')).toBeUndefined()
	})

	it('rate-limits a visitor with 429 and Retry-After', async () => {
		const { app } = await start()
		const statuses = []
		for (let i = 0; i < 7; i++)
			statuses.push(
				(await postForm(app, '/newsletter', { email: `r${i}@example.org`, website: '' })).status,
			)
		expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200])
		const limited = await postForm(app, '/newsletter', { email: 'late@example.org', website: '' })
		expect(limited.status).toBe(429)
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
	})

	it('switches a reader to the weekly digest, which arrives at its hour with only the topics followed', async () => {
		const { app, smtp } = await start()
		await publish({ slug: 'rivers-1', tags: ['Rivers'] })
		await publish({ slug: 'forests-1', tags: ['Forests'] })
		const { preferences: preferencesPath } = await subscribeAndConfirm('weekly@example.org')
		const preferencesUrl = new URL(preferencesPath, app.url).toString()
		const preferences = await getPage(app, preferencesUrl)
		expect(preferences.status).toBe(200)
		const rivers = await app.storage.tags.findBySlug('rivers')
		const saved = await postForm(
			app,
			new URL(preferencesUrl).pathname + new URL(preferencesUrl).search,
			{
				cadence: 'digest',
				tag: String(rivers?.id),
			},
		)
		expect(saved.status).toBe(200)
		expect(await app.storage.newsletter.findByEmail('weekly@example.org')).toMatchObject({
			cadence: 'digest',
			tagIds: [rivers?.id],
		})
		const sentBefore = smtp.received.length
		// A new article goes to the digest only.
		await publish({
			slug: 'rivers-2',
			title: 'The river clean-up',
			tags: ['Rivers'],
			publishedAt: new Date().toISOString(),
		})
		await publish({
			slug: 'forests-2',
			title: 'Old forests',
			tags: ['Forests'],
			publishedAt: new Date().toISOString(),
		})
		await new Promise((resolve) => setTimeout(resolve, 300))
		expect(smtp.received).toHaveLength(sentBefore)

		// The next Monday 09:00 in Berlin has come: its week holds the two new articles.
		const schedule = { day: 1, hour: 9, timeZone: 'Europe/Berlin' }
		await saveDigestSchedule(app.storage, schedule)
		// The digest's hour is in the site's time zone.
		await saveSiteSettings(app.storage, { timeZone: 'Europe/Berlin' })
		const next = latestSlot(new Date(Date.now() + 7 * 24 * 60 * 60 * 1000), schedule)
		const now = new Date(next.at.getTime() + 1_000)
		const made = await makeDueDigest(app.storage, now)
		expect(made).toMatchObject({ made: true, queued: 1 })
		expect(await makeDueDigest(app.storage, now)).toMatchObject({ made: false })
		ahead = now.getTime() - Date.now() + 1_000
		app.newsletterDelivery.wake()
		await smtp.waitFor(sentBefore + 1)
		const digest = mailSource(smtp.received[sentBefore] as ReceivedMail)
		expect(digest).toContain('The river clean-up')
		expect(digest).not.toContain('Old forests')
		// "View in browser" opens the digest on the site.
		const online = /https?:[^\s"<>]+\/newsletter\/digests\/\d+/.exec(digest)?.[0] ?? ''
		const page = await getPage(app, new URL(online).pathname)
		expect(page.status).toBe(200)
		const html = await page.text()
		expect(html).toContain('The river clean-up')
		expect(html).toContain('Old forests')
	})

	it('suspends an address its mail server refuses for good, after the set count', async () => {
		// The first mail (the confirmation, through the outbox) goes; newsletter mail is refused.
		const { app, smtp } = await start((attempt) => (attempt > 1 ? 550 : undefined), 2)
		await subscribeAndConfirm('gone@example.org')
		const first = await publish({ slug: 'one' })
		await until(async () => (await app.storage.newsletter.figuresOfArticle(first.id)).refused === 1)
		const second = await publish({ slug: 'two' })
		await until(
			async () => (await app.storage.newsletter.figuresOfArticle(second.id)).suspended === 1,
		)
		expect(await app.storage.newsletter.findByEmail('gone@example.org')).toMatchObject({
			status: 'suspended',
		})
		expect(smtp.received).toHaveLength(1)
	})
})
