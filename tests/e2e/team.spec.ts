// The team in the browser: an admin invites an editor, who joins from the link in another
// browser, is kept out of the admins' pages, and is signed out the moment they are deactivated.

import { expectNoAxeViolations } from './axe-check.ts'
import { expect, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { createAccount } from './signed-in.ts'

const server = serveCanopy()

test('an admin invites an editor, who joins, is kept out of the team page, and is deactivated', async ({
	page,
	browser,
	baseURL,
}) => {
	const password = await createAccount(server(), {
		email: 'rosa@example.org',
		role: 'admin',
		name: 'Rosa Lima',
	})

	await page.goto('/admin/sign-in?next=%2Fadmin%2Fteam')
	await waitForHydration(page)
	await page.getByLabel('Email address').fill('rosa@example.org')
	await page.getByLabel('Password').fill(password)
	await page.getByRole('button', { name: 'Sign in' }).click()
	await expect(page).toHaveURL(/\/admin\/team$/)

	// The address changes before the team page is drawn, and the sign-in page has an "Email
	// address" too: fill the invite form itself.
	const invite = page.getByRole('form', { name: 'Invite someone' })
	await invite.getByLabel('Email address').fill('lea@example.org')
	await invite.getByLabel('Name', { exact: true }).fill('Lea Park')
	await invite.getByLabel('Role', { exact: true }).selectOption('editor')
	await invite.getByRole('button', { name: 'Make an invite link' }).click()
	const linkField = page.getByLabel('Invite link for lea@example.org')
	await expect(linkField).toHaveValue(/\/admin\/invite\?token=/)
	const link = await linkField.inputValue()

	await expectNoAxeViolations(page)

	// The invitee, in a browser of their own.
	const theirs = await browser.newContext({ baseURL })
	const lea = await theirs.newPage()
	await lea.goto(link)
	await expect(lea.getByText('lea@example.org')).toBeVisible()
	await expect(lea.getByLabel('Your name')).toHaveValue('Lea Park')
	await lea.getByLabel('Password').fill('kelp forests grow fast')
	await lea.getByRole('button', { name: 'Make my account' }).click()
	await expect(lea).toHaveURL(/\/admin$/)
	await expect(lea.getByText('Signed in as')).toContainText('Lea Park')

	await lea.goto('/admin/team')
	await expect(lea.getByRole('heading', { level: 1 })).toHaveText('For admins only')

	await page.reload()
	// It asks first, saying what it does.
	await page.getByText('Deactivate Lea Park…').click()
	await expect(page.getByText('Lea Park is signed out everywhere at once')).toBeVisible()
	await page.getByRole('button', { name: 'Deactivate Lea Park' }).click()
	await expect(page.getByRole('status')).toHaveText(
		'Lea Park is deactivated and signed out everywhere.',
	)

	await lea.goto('/admin')
	await expect(lea).toHaveURL(/\/admin\/sign-in\?next=%2Fadmin$/)
	await theirs.close()
})

test('the team page fits a 320 px screen', async ({ page }) => {
	const password = await createAccount(server(), {
		email: 'sam@example.org',
		role: 'admin',
		name: 'Sam',
	})
	await page.setViewportSize({ width: 320, height: 720 })
	await page.goto('/admin/sign-in?next=%2Fadmin%2Fteam')
	await waitForHydration(page)
	await page.getByLabel('Email address').fill('sam@example.org')
	await page.getByLabel('Password').fill(password)
	await page.getByRole('button', { name: 'Sign in' }).click()
	await expect(page).toHaveURL(/\/admin\/team$/)
	const overflow = await page.evaluate(
		() => document.documentElement.scrollWidth - document.documentElement.clientWidth,
	)
	expect(overflow).toBe(0)
	await page.getByRole('button', { name: 'Make a password reset link for Sam' }).focus()
	await page.keyboard.press('Enter')
	await expect(page.getByLabel('Password reset link for sam@example.org')).toHaveValue(
		/\/admin\/reset-password\?token=/,
	)
})
