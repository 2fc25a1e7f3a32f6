// Push notices as an editor meets them: the subscriber count in the article list, and the
// switch in the editor, unticked from the keyboard, so an article goes public without a notice.

import { expectNoAxeViolations } from './axe-check.ts'
import { expect, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { signedInAs } from './signed-in.ts'

const server = serveCanopy()
signedInAs(server, { email: 'noor@example.org', role: 'editor', name: 'Noor Haddad' })

/** Readers' subscriptions, stored straight into the server's database (no push service here). */
function subscribe(count: number) {
	return server().withStorage(async (storage) => {
		for (let i = 0; i < count; i++)
			await storage.push.saveSubscription(
				{
					endpoint: `https://push.example.net/send/e2e-${i}`,
					p256dh: `B${'A'.repeat(85)}`,
					auth: `auth-${i}`,
					expirationTime: null,
				},
				new Date(),
			)
	})
}

// Three readers for the whole file: each test can run alone.
test.beforeAll(() => subscribe(3))

function deliveriesOf(articleId: number): Promise<number> {
	return server().withStorage(
		async (storage) => (await storage.push.deliveriesOf(articleId)).length,
	)
}

test('an editor sees the subscribers and publishes without notifying them, by keyboard', async ({
	page,
}) => {
	await page.goto('/admin/articles')
	await waitForHydration(page)
	await expect(page.getByText('3 readers subscribed to notices of new articles')).toBeVisible()

	await page.goto('/admin/articles/new')
	await waitForHydration(page)
	await page.getByLabel('Title', { exact: true }).fill('A quiet correction')
	await page.getByLabel('Summary').fill('A figure fixed in last week’s piece.')
	await page.getByLabel('Text (Markdown)').fill('The figure is 4%, not 40%.')
	const notify = page.getByRole('checkbox', { name: 'Notify subscribers when this is published' })
	await expect(notify).toBeChecked()

	// From the text onwards by Tab alone, to the switch; Space unticks it.
	await page.getByLabel('Text (Markdown)').focus()
	for (let step = 0; step < 30; step++) {
		if (await notify.evaluate((el) => el === document.activeElement)) break
		await page.keyboard.press('Tab')
	}
	await expect(notify).toBeFocused()
	await page.keyboard.press('Space')
	await expect(notify).not.toBeChecked()

	await page.getByRole('button', { name: 'Publish now' }).focus()
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(/\/admin\/articles\/\d+\?saved=publish$/)
	const id = Number(/\/admin\/articles\/(\d+)/.exec(page.url())?.[1])
	const results = page.getByRole('region', { name: 'Push notices' })
	await expect(results).toContainText('Published without notifying')
	await expect(results).toContainText('3 readers subscribed to notices of new articles now')
	expect(await deliveriesOf(id)).toBe(0)

	await page.goto('/admin/articles')
	await waitForHydration(page)
	const row = page.getByRole('row').filter({ hasText: 'A quiet correction' })
	await expect(row.getByRole('cell', { name: 'Published without notifying' })).toBeVisible()
})

test('an announced article shows its notices state by state, on a 320 px screen too', async ({
	page,
}) => {
	await page.setViewportSize({ width: 320, height: 720 })
	await page.goto('/admin/articles/new')
	await waitForHydration(page)
	await page.getByLabel('Title', { exact: true }).fill('Kelp forests')
	await page.getByLabel('Text (Markdown)').fill('Kelp grows half a metre a day.')
	await page.getByRole('button', { name: 'Publish now' }).click()
	await expect(page).toHaveURL(/\/admin\/articles\/\d+\?saved=publish$/)
	await waitForHydration(page)
	const results = page.getByRole('region', { name: 'Push notices' })
	await expect(results).toContainText('Sent to 0 of 3 · 3 waiting')
	await expect(results.getByRole('definition').filter({ hasText: /^3$/ })).toHaveCount(1)
	await expect(page.getByText('Subscribers were told of this article on')).toBeVisible()
	await expect(page.getByRole('checkbox', { name: /Notify subscribers/ })).toHaveCount(0)
	const width = await page.evaluate(() => document.documentElement.scrollWidth)
	expect(width).toBeLessThanOrEqual(320)
	await expectNoAxeViolations(page)
})
