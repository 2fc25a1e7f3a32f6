// An admin changes the site's title and logo in /admin/settings, and every visitor's header shows
// them; an SVG is refused next to the field that chose it.
import type { Page } from '@playwright/test'
import { pngImage, svgImage } from '../fixtures/images.ts'
import { expectNoAxeViolations } from './axe-check.ts'
import {
	expect,
	interfaceOnly,
	serveCanopy,
	siteTitle,
	test,
	waitForHydration,
} from './canopy-test.ts'
import { createAccount } from './signed-in.ts'

const server = serveCanopy()

// Chromium logs the refused upload's HTTP status as a console error.
test.use({ expectedConsoleError: /status of 415/ })

/** Follows the staff menu to Articles, and no dialog asks about unsaved changes first. */
async function leavesWithoutAsking(page: Page) {
	await page
		.getByRole('navigation')
		.getByRole('link', { name: 'Articles', exact: true })
		.first()
		.click()
	await expect(page).toHaveURL(/\/admin\/articles$/)
	await expect(page.getByRole('alertdialog')).toHaveCount(0)
}

async function signInAsAdmin(page: Page, email = 'ada@example.org') {
	const password = await createAccount(server(), {
		email,
		role: 'admin',
		name: 'Ada Admin',
	})
	await page.goto('/admin/settings')
	await expect(page).toHaveURL(/\/admin\/sign-in\?next=%2Fadmin%2Fsettings$/)
	await waitForHydration(page)
	await page.getByLabel('Email address').fill(email)
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
	// A refused file changed nothing in the form: leaving asks nothing.
	await leavesWithoutAsking(page)
	await page.goBack()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Site settings')

	await picker.setInputFiles({
		name: 'logo.png',
		mimeType: 'image/png',
		// Wider than tall, as many logos are: drawn in its shape, not squeezed into the square.
		buffer: Buffer.from(pngImage(60, 30, { rgb: [200, 30, 30] })),
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
	// Saved: "uploaded, save to use it" is no longer news.
	await expect(page.getByText('logo.png uploaded')).toHaveCount(0)
	// The staff area's own header names the site too, read again after the save.
	await expect(page.locator('a.staff-site')).toContainText('Rivers First')
	await expect(page.locator('img.staff-logo')).toHaveAttribute('src', logoUrl)
	await expect(page.locator('img.staff-logo')).toHaveCSS('object-fit', 'contain')

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
			fit: getComputedStyle(image).objectFit,
		}))
		expect(size).toEqual({ loaded: true, width: 25, height: 25, fit: 'contain' })
		await expect(visitor.locator('img.home-logo')).toHaveCSS('object-fit', 'contain')
	} finally {
		await visitor.close()
	}
})

test.describe('the contact page', () => {
	// The refused save answers 400, which Chromium logs.
	test.use({ expectedConsoleError: /status of 400/ })

	test('an admin sets the contact email and introduction; /contact shows them, a bad address is named', async ({
		page,
		browser,
	}) => {
		await signInAsAdmin(page, 'grace@example.org')
		const email = page.getByLabel('Contact email')
		await expect(email).toHaveValue('hello@example.org')
		await email.fill('rivers at example')
		await page.getByLabel('Introduction').fill('Tell us about your river.')
		// The browser's own check would stop an input of type email first; the server's is the one
		// a reader of the page without JavaScript, or a script, meets.
		await page.locator('form.settings-form').evaluate((form: HTMLFormElement) => {
			form.noValidate = true
		})
		const title = page.getByLabel('Site title')
		const kept = await title.inputValue()
		await title.fill('')
		await page.getByRole('button', { name: 'Save settings' }).click()
		// A summary takes focus, its problems in the form's order, each a link to its field.
		const summary = page.getByRole('alert').filter({ hasText: 'Nothing was saved' })
		await expect(summary).toBeFocused()
		const links = summary.getByRole('link')
		await expect(links).toHaveCount(2)
		await expect(links.nth(0)).toHaveText(/^Site title: /)
		await expect(links.nth(1)).toHaveText(/^Contact email: /)
		await page.keyboard.press('Tab')
		await page.keyboard.press('Enter')
		await expect(title).toBeFocused()
		await title.fill(kept)
		await expect(email).toHaveAccessibleDescription(
			/Enter an email address like hello@your-group\.org\./,
		)
		await expect(email).toHaveAttribute('aria-invalid', 'true')
		await expectNoAxeViolations(page)

		await email.fill('write@rivers.example')
		await page.getByRole('button', { name: 'Save settings' }).click()
		await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible()
		await expect(email).toHaveValue('write@rivers.example')

		const visitor = await browser.newPage({ baseURL: server().url })
		try {
			await visitor.goto('/contact')
			await expect(visitor.locator('.contact-intro')).toHaveText('Tell us about your river.')
			const link = visitor.getByRole('link', { name: 'write@rivers.example' })
			await expect(link).toHaveAttribute('href', 'mailto:write@rivers.example')
			await expect(visitor.getByText('hello@example.org')).toHaveCount(0)
		} finally {
			await visitor.close()
		}
	})
})

test(
	'leaving the settings with changes not saved asks first; once saved, nothing asks',
	interfaceOnly,
	async ({ page }) => {
		await signInAsAdmin(page, 'lin@example.org')
		const tagline = page.getByLabel('Tagline')
		const before = await tagline.inputValue()
		await tagline.fill('Counting otters on every river.')
		await page
			.getByRole('navigation')
			.getByRole('link', { name: 'Articles', exact: true })
			.first()
			.click()
		const dialog = page.getByRole('alertdialog')
		await expect(dialog).toContainText('You have unsaved changes.')
		await dialog.getByRole('button', { name: 'Stay and keep editing' }).click()
		await expect(page).toHaveURL(/\/admin\/settings$/)
		await expect(tagline).toHaveValue('Counting otters on every river.')

		await tagline.fill(before)
		await page.getByRole('button', { name: 'Save settings' }).click()
		await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible()
		await leavesWithoutAsking(page)
	},
)
