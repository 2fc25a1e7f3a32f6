// An admin connects an automation tool: allows an address on this machine, adds the endpoint,
// reads its secret, sends a test event that a receiver checks with the Standard Webhooks library,
// and sees it delivered in the log.

import { Webhook } from 'standardwebhooks'
import { startWebhookReceiver } from '#tests/fixtures/webhook-receiver.ts'
import { expectNoAxeViolations } from './axe-check.ts'
import { expect, screenshotsAtWidths, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { signedInAs } from './signed-in.ts'

const server = serveCanopy()
signedInAs(server, { email: 'ada@example.org', role: 'admin', name: 'Ada Admin' })
// The refused address below is the form's 400 answer, which the browser reports.
test.use({
	expectedConsoleError: /status of 400 \(Bad Request\) \(at http:[^ ]+\/admin\/webhooks\.data/,
})

test('an admin adds an endpoint, and a signed test event reaches it', async ({ page }) => {
	const receiver = await startWebhookReceiver()
	try {
		await page.goto('/admin')
		await waitForHydration(page)
		await page.getByRole('link', { name: 'Webhooks' }).click()
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Webhooks')

		// This machine is refused, and the message says where to allow it.
		const add = page.getByRole('form', { name: 'Add an endpoint' })
		await add.getByLabel('Address').fill(`${receiver.url}/n8n`)
		await add.getByLabel('Description').fill('n8n on this server')
		await add.getByRole('button', { name: 'Add the endpoint' }).click()
		await expect(
			add.locator('.field-error', { hasText: /when the webhook settings allow them/ }),
		).toBeVisible()
		// Said at the top of the form, where focus goes, and linked to the field.
		const summary = add.getByRole('alert').filter({ hasText: 'The endpoint was not added' })
		await expect(summary).toBeFocused()
		await expect(summary).toBeInViewport()
		await summary.getByRole('link', { name: /^Address: / }).click()
		await expect(add.getByLabel('Address')).toBeFocused()
		await expectNoAxeViolations(page)

		await page.getByLabel('Allow this machine and private networks').check()
		await page.getByRole('button', { name: 'Save the setting' }).click()
		await expect(page.getByText('Endpoints may now be on this machine')).toBeVisible()
		// Now it is taken, with the events chosen.
		await add.getByLabel('Address').fill(`${receiver.url}/n8n`)
		await add.getByLabel('Article updated').uncheck()
		await add.getByRole('button', { name: 'Add the endpoint' }).click()

		await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${receiver.url}/n8n`)
		await expect(page.getByText('The endpoint is added.')).toBeVisible()
		// Said on arrival only: the address loses its ?created=1, so a reload does not say it again.
		await expect(page).toHaveURL(/\/admin\/webhooks\/\d+$/)
		await expect(page.getByText('The endpoint is added.')).toBeVisible()
		await page.getByText('Show the secret').click()
		const secret = await page.getByLabel('Secret', { exact: true }).inputValue()
		expect(secret).toMatch(/^whsec_/)
		await page.getByRole('button', { name: 'Send a test event' }).click()
		await expect(page.getByText('A test event is on its way')).toBeVisible()

		const [got] = await receiver.waitFor(1)
		const event = new Webhook(secret).verify(
			got?.body ?? '',
			got?.headers as Record<string, string>,
		)
		expect(event).toMatchObject({ type: 'webhook.test' })
		await expect(async () => {
			await page.reload()
			await expect(page.getByRole('row', { name: /Test event/ })).toContainText('Delivered')
		}).toPass({ timeout: 10_000 })
		await expect(page.getByText('The endpoint is added.')).toHaveCount(0)
		await expect(page.getByLabel('Article updated')).not.toBeChecked()
		await expect(page.getByLabel('Article published')).toBeChecked()

		// A new secret: for a day both sign, so the receiver still on the old one accepts.
		await page.getByText('Show the secret').click()
		await page.getByRole('button', { name: 'Make a new secret' }).click()
		await expect(page.getByText('A new secret is in place.')).toBeVisible()
		await expect(page.getByText('The old secret also signs events until')).toBeVisible()
		await page.getByText('Show the secret').click()
		const newSecret = await page.getByLabel('Secret', { exact: true }).inputValue()
		expect(newSecret).toMatch(/^whsec_/)
		expect(newSecret).not.toBe(secret)
		await page.getByRole('button', { name: 'Send a test event' }).click()
		const [, overlapping] = await receiver.waitFor(2)
		for (const key of [secret, newSecret])
			expect(
				new Webhook(key).verify(
					overlapping?.body ?? '',
					overlapping?.headers as Record<string, string>,
				),
			).toMatchObject({ type: 'webhook.test' })
		await expectNoAxeViolations(page)
		await screenshotsAtWidths(page, 'webhook-new-secret')
		await page.getByRole('button', { name: 'Stop the old secret now' }).click()
		await expect(page.getByText('The old secret signs no more events.')).toBeVisible()
		await expect(page.getByText('The old secret also signs events until')).toHaveCount(0)
		await expectNoAxeViolations(page)
		await screenshotsAtWidths(page, 'webhook')
		await page.getByRole('link', { name: 'Webhooks', exact: true }).first().click()
		await expect(page.getByRole('link', { name: `${receiver.url}/n8n` })).toBeVisible()
		await screenshotsAtWidths(page, 'webhooks')
	} finally {
		await receiver.close()
	}
})
