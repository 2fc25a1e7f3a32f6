// The newsletter as a reader meets it, with a real mail server on a local port: subscribing from
// the foot of a page without JavaScript, the confirmation link, the next article arriving by
// mail, the preferences and unsubscribe pages its links open, and the same with JavaScript.

import {
	linkIn,
	mailSource,
	type ReceivedMail,
	startSmtpServer,
	type TestSmtpServer,
} from '#tests/fixtures/smtp.ts'
import { expectNoAxeViolations } from './axe-check.ts'
import { expect, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { publishArticles } from './server.ts'

let smtp: TestSmtpServer
test.beforeAll(async () => {
	smtp = await startSmtpServer()
})
test.afterAll(async () => {
	await smtp?.close()
})
const server = serveCanopy({ env: () => ({ SMTP_URL: smtp.url }) })

async function mailTo(address: string, subject: RegExp) {
	await expect
		.poll(
			() =>
				smtp.received.filter((m) => m.to.includes(address) && subject.test(mailSource(m))).length,
			{
				timeout: 15_000,
			},
		)
		.toBeGreaterThan(0)
	return smtp.received
		.filter((m) => m.to.includes(address) && subject.test(mailSource(m)))
		.at(-1) as ReceivedMail
}

test.describe('without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('a reader subscribes from the foot of a page, confirms, gets the next article, changes what they receive and unsubscribes', async ({
		page,
	}) => {
		// Two mails waited for.
		test.setTimeout(60_000)
		const address = 'river.reader@example.org'
		await page.goto('/articles')
		const footer = page.locator('footer')
		await footer.getByLabel('Email address', { exact: true }).fill(address)
		await footer.getByRole('button', { name: 'Subscribe' }).click()
		await expect(page).toHaveURL(/\/newsletter$/)
		await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()
		await expect(page.getByRole('status')).toContainText(address)

		const confirmation = await mailTo(address, /Confirm your subscription/)
		await page.goto(linkIn(confirmation, '/newsletter/confirm'))
		await expect(page.getByRole('heading', { name: 'You are subscribed' })).toBeVisible()

		await publishArticles(server(), [
			{ title: 'Peat bogs hold a third of soil carbon', slug: 'peat-bogs-carbon', tags: ['Peat'] },
		])
		const article = await mailTo(address, /Peat bogs hold a third of soil carbon/)
		expect(article.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
		expect(mailSource(article)).toContain('/articles/peat-bogs-carbon')

		await page.goto(linkIn(article, '/newsletter/preferences'))
		await expect(page.getByRole('heading', { name: 'Newsletter preferences' })).toBeVisible()
		await page.getByLabel(/One weekly digest/).check()
		await page.getByLabel('Peat').check()
		await page.getByRole('button', { name: 'Save preferences' }).click()
		await expect(page.getByRole('status')).toContainText('Saved')
		await expect(page.getByLabel(/One weekly digest/)).toBeChecked()
		await expect(page.getByLabel('Peat')).toBeChecked()

		await page.goto(linkIn(article, '/newsletter/unsubscribe'))
		await page.getByRole('button', { name: 'Unsubscribe' }).click()
		await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible()
		const status = await server().withStorage(
			async (storage) => (await storage.newsletter.findByEmail(address))?.status,
		)
		expect(status).toBe('unsubscribed')
	})
})

test.describe('without JavaScript, a malformed address', () => {
	// The browser logs the 400 answer's document as a failed load; that one is expected.
	test.use({
		javaScriptEnabled: false,
		expectedConsoleError: /status of 400 \(Bad Request\) \(at http:[^ ]+\/newsletter\)$/,
	})

	test('a malformed address comes back with a message beside the field', async ({ page }) => {
		await page.goto('/newsletter')
		const main = page.locator('main')
		await main.getByLabel('Email address', { exact: true }).fill('not-an-address@')
		// Answered in the page's words, not the browser's bubble: the form does not ask the
		// browser to check it.
		await expect(main.locator('form')).toHaveAttribute('novalidate', '')
		await main.getByRole('button', { name: 'Subscribe' }).click()
		await expect(main.getByLabel('Email address', { exact: true })).toHaveAttribute(
			'aria-invalid',
			'true',
		)
		await expect(main.locator('.field-error')).toContainText('Enter an email address')
	})

	test('an empty address from the footer is answered in words beside the field', async ({
		page,
	}) => {
		await page.goto('/home')
		await page.locator('footer').getByRole('button', { name: 'Subscribe' }).click()
		await expect(page).toHaveURL(/\/newsletter$/)
		const field = page.locator('main').getByLabel('Email address', { exact: true })
		await expect(field).toHaveAttribute('aria-invalid', 'true')
		await expect(field).toHaveAccessibleDescription('Enter your email address.')
	})
})

test('with JavaScript, Subscribe with nothing typed keeps the reader on the page, the cursor in the field', async ({
	page,
}) => {
	await page.goto('/articles/the-living-ground')
	await waitForHydration(page)
	const footer = page.locator('footer')
	await footer.getByRole('button', { name: 'Subscribe' }).click()
	await expect(footer.getByLabel('Email address', { exact: true })).toBeFocused()
	await expect(page).toHaveURL(/\/articles\/the-living-ground$/)
})

test('with JavaScript, a reader subscribes from the home page, confirms and reaches every page of the newsletter, each passing axe', async ({
	page,
}) => {
	const address = 'forest.friend@example.org'
	await page.goto('/home')
	await waitForHydration(page)
	const footer = page.locator('footer')
	await footer.getByLabel('Email address', { exact: true }).fill(address)
	await footer.getByRole('button', { name: 'Subscribe' }).click()
	await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()
	await expect(page).toHaveURL(/\/newsletter$/)
	await expectNoAxeViolations(page, 'the answer to subscribing')

	const confirmation = await mailTo(address, /Confirm your subscription/)
	await page.goto(linkIn(confirmation, '/newsletter/confirm'))
	await expect(page.getByRole('heading', { name: 'You are subscribed' })).toBeVisible()
	// A subscriber's own pages ask nobody to subscribe again at their foot.
	await expect(page.locator('footer').getByRole('button', { name: 'Subscribe' })).toHaveCount(0)
	await expectNoAxeViolations(page, 'confirmed')
	await page.getByRole('link', { name: /Choose a weekly digest/ }).click()
	await expect(page.getByRole('heading', { name: 'Newsletter preferences' })).toBeVisible()
	await expect(page.locator('footer').getByRole('button', { name: 'Subscribe' })).toHaveCount(0)
	await expectNoAxeViolations(page, 'preferences')
	await page.getByRole('link', { name: 'Unsubscribe from all mail' }).click()
	await expect(page.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible()
	await expectNoAxeViolations(page, 'unsubscribe')
	await page.getByRole('button', { name: 'Unsubscribe' }).click()
	await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible()
})
