// A new site's first admin, as its operator makes it: the link printed at first start, a form,
// and then the editor area; the same link refused once it has been used.
import { expect, serveCanopy, test, waitForHydration } from './canopy-test.ts'

const server = serveCanopy()

test('the setup link printed at first start makes the first admin, once', async ({ page }) => {
	const link = /Make the first admin account \(link valid for one hour\):\n(\S+)/.exec(
		server().output(),
	)?.[1]
	expect(link, server().output()).toMatch(/\/admin\/setup\?token=[\w-]{40,}$/)
	const path = new URL(link ?? '').pathname + new URL(link ?? '').search

	await page.goto(path)
	await waitForHydration(page)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Set up the site')
	await page.getByLabel('Your name').fill('Ada Lovelace')
	await page.getByLabel('Email address').fill('ada@example.org')
	await page.getByLabel('Password').fill('tidal marsh 4 carbon')
	await page.getByRole('button', { name: 'Make the admin account' }).click()
	await expect(page).toHaveURL(/\/admin$/)
	await expect(page.getByText('Signed in as')).toContainText('Ada Lovelace')
	// An admin sees the admins' part of the area.
	const area = page.getByRole('navigation', { name: 'Editor area' })
	await expect(area.getByRole('link', { name: 'Team' })).toBeVisible()
	await area.getByRole('link', { name: 'Articles' }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Articles')

	await page.context().clearCookies()
	await page.goto(path)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('This site is set up')
})
