// The door of the editor area, in the browser: sent to sign in, a refusal read out, signed in,
// signed out for good.

import { expectNoAxeViolations } from './axe-check.ts'
import { expect, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { runCli } from './server.ts'

const server = serveCanopy()

// Chromium logs the refused sign-in's HTTP status as a console error.
test.use({ expectedConsoleError: /status of 401/ })

test('an editor signs in, sees the editor area, and signs out', async ({ page }) => {
	const created = await runCli(server(), [
		'user:create',
		'--email',
		'ana@example.org',
		'--role',
		'editor',
		'--name',
		'Ana Costa',
	])
	expect(created.code, created.stderr).toBe(0)
	const password =
		/Password \(shown once; keep it somewhere safe\): (\S+)/.exec(created.stdout)?.[1] ?? ''
	expect(password).not.toBe('')

	await page.goto('/admin')
	await expect(page).toHaveURL(/\/admin\/sign-in\?next=%2Fadmin$/)
	await waitForHydration(page)
	await page.getByLabel('Email address').fill('ana@example.org')
	await page.getByLabel('Password').fill('not the password 12')
	await page.getByRole('button', { name: 'Sign in' }).click()
	await expect(page.getByRole('alert')).toHaveText(
		'That email address and password do not match an account.',
	)
	await expect(page.getByLabel('Email address')).toHaveValue('ana@example.org')
	// The wrong password is cleared, and the cursor waits there for the right one.
	await expect(page.getByLabel('Password')).toHaveValue('')
	await expect(page.getByLabel('Password')).toBeFocused()

	await page.keyboard.type(password)
	await page.getByRole('button', { name: 'Sign in' }).click()
	await expect(page).toHaveURL(/\/admin$/)
	await expect(page.getByText('Signed in as')).toContainText('Ana Costa')

	await page.getByRole('link', { name: 'Your account' }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account')
	await expectNoAxeViolations(page)

	await page.getByRole('button', { name: 'Sign out' }).click()
	await expect(page.getByRole('status')).toHaveText('You are signed out.')
	// Said once: the address is plain again, so a reload does not say it.
	await expect(page).toHaveURL(/\/admin\/sign-in$/)
	await page.goto('/admin')
	await expect(page).toHaveURL(/\/admin\/sign-in\?next=%2Fadmin$/)
})

test.describe('the site opened at another address', () => {
	// The refused sign-in's 403, which Chromium logs.
	test.use({ expectedConsoleError: /status of 403/ })

	test('a sign-in sent from it is refused in words that say why, with a link to the site’s own', async ({
		page,
	}) => {
		const own = new URL(server().url)
		// The same server reached by another name (as by its IP address, or www): another origin.
		await page.goto(`http://localhost:${own.port}/admin/sign-in`)
		await waitForHydration(page)
		await page.getByLabel('Email address').fill('ana@example.org')
		await page.getByLabel('Password').fill('any password at all')
		await page.getByRole('button', { name: 'Sign in' }).click()
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sent from another address')
		await expect(page.getByText('For admins only')).toHaveCount(0)
		await expect(page.getByRole('link', { name: own.origin })).toHaveAttribute(
			'href',
			`${own.origin}/admin/sign-in`,
		)
	})
})
