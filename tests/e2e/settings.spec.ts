// An admin changes the site's title and logo in /admin/settings, and every visitor's header shows
// them; an SVG is refused next to the field that chose it.
import type { Page } from '@playwright/test'
import { pngImage, svgImage } from '../fixtures/images.ts'
import { expectNoAxeViolations } from './axe-check.ts'
import { expect, serveCanopy, siteTitle, test, waitForHydration } from './canopy-test.ts'
import { createAccount } from './signed-in.ts'

const server = serveCanopy()

// Chromium logs the refused upload's HTTP status as a console error.
test.use({ expectedConsoleError: /status of 415/ })

async function signInAsAdmin(page: Page) {
	const password = await createAccount(server(), {
		email: 'ada@example.org',
		role: 'admin',
		name: 'Ada Admin',
	})
	await page.goto('/admin/settings')
	await expect(page).toHaveURL(/\/admin\/sign-in\?next=%2Fadmin%2Fsettings$/)
	await waitForHydration(page)
	await page.getByLabel('Email address').fill('ada@example.org')
	await page.getByLabel('Password').fill(password)
	await page.getByRole('button', { name: 'Sign in' }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Site settings')
	await waitForHydration(page)
}

test('an admin uploads a logo and renames the site; the public header shows both', async ({
	page,
	browser,
}) => {
	await signInAsAdmin(page)
	await expectNoAxeViolations(page)

	const picker = page.getByLabel('Upload an image')
	await picker.setInputFiles({
		name: 'logo.svg',
		mimeType: 'image/svg+xml',
		buffer: Buffer.from(svgImage()),
	})
	const refusal = page.locator('#logoUrl-file-error')
	await expect(refusal).toHaveAttribute('role', 'alert')
	await expect(refusal).toContainText('SVG images cannot be uploaded')
	await expect(picker).toHaveAttribute('aria-invalid', 'true')
	await expect(picker).toHaveAccessibleDescription(/an SVG can carry scripts/)
	await expect(page.getByLabel('Logo address', { exact: true })).toHaveValue('/logo.svg')
	await expectNoAxeViolations(page)

	await picker.setInputFiles({
		name: 'logo.png',
		mimeType: 'image/png',
		buffer: Buffer.from(pngImage(50, 50, { rgb: [200, 30, 30] })),
	})
	await expect(page.getByRole('status').filter({ hasText: 'logo.png uploaded' })).toBeVisible()
	await expect(refusal).toBeEmpty()
	const logoField = page.getByLabel('Logo address', { exact: true })
	await expect(logoField).toHaveValue(/^\/media\/[0-9a-f]{64}\.png$/)
	const logoUrl = await logoField.inputValue()
	await expect(page.locator('.image-upload-preview')).toHaveAttribute('src', logoUrl)

	await page.getByLabel('Site title').fill('Rivers First')
	await page.getByRole('button', { name: 'Save settings' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible()
	// The staff area's own header names the site too, read again after the save.
	await expect(page.locator('a.staff-site')).toContainText('Rivers First')
	await expect(page.locator('img.staff-logo')).toHaveAttribute('src', logoUrl)

	// A visitor with no session, served through the whole-page cache.
	const visitor = await browser.newPage({ baseURL: server().url })
	try {
		await visitor.goto('/home')
		const logo = visitor.locator('img.site-logo')
		await expect(visitor.locator('a.site-title')).toHaveText('Rivers First')
		await expect(visitor.locator('a.site-title')).not.toHaveText(siteTitle)
		await expect(logo).toHaveAttribute('src', logoUrl)
		await expect(logo).toHaveAttribute('alt', '')
		const size = await logo.evaluate((image: HTMLImageElement) => ({
			loaded: image.complete && image.naturalWidth > 0,
			width: image.getBoundingClientRect().width,
			height: image.getBoundingClientRect().height,
		}))
		expect(size).toEqual({ loaded: true, width: 25, height: 25 })
	} finally {
		await visitor.close()
	}
})
