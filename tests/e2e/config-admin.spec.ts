// An admin changes the live configuration in /admin/config with the keyboard: publishes a
// banner, adds "10 % of visitors, language fr" to it, sees it in words and in the versions, and
// rolls back to the first version, which comes back as a new one.

import { expectNoAxeViolations } from './axe-check.ts'
import { expect, interfaceOnly, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { signedInAs } from './signed-in.ts'

const server = serveCanopy()
const session = signedInAs(server, { email: 'ines@example.org', name: 'Inês Admin', role: 'admin' })

test('an admin adds a rollout condition to the banner, publishes, and rolls back', async ({
	page,
}) => {
	await page.goto('/admin')
	await page
		.getByRole('navigation', { name: 'Editor area' })
		.getByRole('link', {
			name: 'Site switches',
		})
		.click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Site switches')
	await expect(page.getByText('Nothing published yet')).toBeVisible()
	await page.getByRole('link', { name: 'Every parameter, by its key' }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Every parameter')
	await expectNoAxeViolations(page)

	// Version 1: a server default for the banner.
	await page.getByRole('link', { name: 'Edit banner_message' }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('banner_message')
	await waitForHydration(page)
	// Typing the value chooses "Set a server default" by itself.
	await page.getByLabel('Server default value').fill('Welcome')
	await expect(page.getByRole('radio', { name: 'Set a server default' })).toBeChecked()
	await page.getByRole('button', { name: 'Publish' }).click()
	await expect(page.getByRole('status')).toHaveText(/Version 1 published/)

	// Version 2: the condition, added and filled in from the keyboard.
	await page.goto('/admin/config/banner_message')
	await waitForHydration(page)
	await page.getByRole('button', { name: 'Add a condition' }).focus()
	await page.keyboard.press('Enter')
	const condition = page.getByRole('group', { name: 'Condition 1' })
	const percent = condition.getByLabel('Percent of visitors')
	await expect(percent).toBeFocused()
	await page.keyboard.type('10')
	await page.keyboard.press('Tab')
	await expect(condition.getByLabel('Languages')).toBeFocused()
	await page.keyboard.type('fr')
	await condition.getByLabel('Value').focus()
	await page.keyboard.type('Bonjour')
	await expectNoAxeViolations(page)
	// Enter in a field publishes (the form's default button), never moves or removes a row.
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(/\/admin\/config\/advanced\?published=2$/)
	await expect(page.getByRole('status')).toHaveText(/Version 2 published/)
	await expect(page.getByText("10 % of visitors · language fr → 'Bonjour'")).toBeVisible()
	await expect(page.getByText(/Current version: version 2, published by Inês Admin/)).toBeVisible()

	await page.getByRole('link', { name: 'All versions' }).click()
	const versions = page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { level: 2 }) })
	await expect(versions.first().getByRole('heading')).toHaveText('Version 2 (current)')
	await expect(versions.first()).toContainText('banner_message: 1 condition added')
	await expectNoAxeViolations(page)

	const first = page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name: 'Version 1' }) })
	await first.getByText('Roll back to this version').click()
	await expect(first).toContainText('This publishes version 1’s configuration again, as version 3.')
	await expectNoAxeViolations(page)
	await first.getByRole('button', { name: 'Roll back to version 1' }).click()
	await expect(page.getByRole('status')).toHaveText(/Version 3 published: a copy of version 1/)
	const newest = page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name: 'Version 3 (current)' }) })
	await expect(newest).toContainText('restored from 1')
	await expect(newest).toContainText('Rolled back to version 1')

	await page.getByRole('link', { name: 'Every parameter', exact: true }).first().click()
	await expect(page.getByText("10 % of visitors · language fr → 'Bonjour'")).toHaveCount(0)
	await expect(page.getByText(/Current version: version 3/)).toBeVisible()
})

test('an admin puts up an announcement with a link in plain words, previews it, and readers get it; off keeps the text', async ({
	page,
	browser,
}) => {
	await page.goto('/admin/config')
	await waitForHydration(page)
	const bar = page.getByRole('group', { name: 'Announcement bar' })
	await bar.getByRole('radio', { name: 'Every reader' }).check()
	await bar.getByLabel('Announcement text').fill('Join the river clean-up on Saturday')
	await bar.getByLabel('Link (optional)').fill('/contact')
	// The preview follows the typing, as readers will see it.
	const preview = bar.getByRole('figure', { name: 'Preview' })
	await expect(
		preview.getByRole('link', { name: 'Join the river clean-up on Saturday' }),
	).toBeVisible()
	// "Some readers" shows its choices only while chosen.
	await expect(bar.getByLabel('Share of readers (percent)')).toBeHidden()
	await bar.getByRole('radio', { name: 'Some readers, chosen below' }).check()
	await expect(bar.getByLabel('Share of readers (percent)')).toBeVisible()
	await bar.getByRole('radio', { name: 'Every reader' }).check()
	await expectNoAxeViolations(page)
	await page.getByRole('button', { name: 'Publish' }).click()
	await expect(page.getByRole('status')).toHaveText(/Published \(version \d+\)/)

	const reader = await browser.newPage({ baseURL: server().url })
	await reader.goto('/articles')
	const banner = reader.getByRole('region', { name: 'Announcement' })
	await banner.getByRole('link', { name: 'Join the river clean-up on Saturday' }).click()
	await expect(reader).toHaveURL(/\/contact$/)

	await bar.getByRole('radio', { name: /Nobody/ }).check()
	await page.getByRole('button', { name: 'Publish' }).click()
	await expect(page.getByRole('status')).toHaveText(/Published \(version \d+\)/)
	await expect(bar.getByLabel('Announcement text')).toHaveValue(
		'Join the river clean-up on Saturday',
	)
	// Every instance hears of the new version on the live feed (on PostgreSQL, by NOTIFY): a
	// page loaded a moment later may still have the one before.
	await expect(async () => {
		await reader.goto('/articles')
		await expect(reader.getByRole('region', { name: 'Announcement' })).toHaveCount(0, {
			timeout: 1_000,
		})
	}).toPass({ timeout: 15_000 })
	await reader.close()
})

test.describe('publishing at the same time', () => {
	// The refused publish is the form's 409 answer, which the browser reports.
	test.use({
		expectedConsoleError: /status of 409 \(Conflict\) \(at http:[^ ]+\/admin\/config\.data/,
	})

	test('two admins change the switches at once: the second is told, loads the first’s version in place, and nothing is lost or left unsaved', async ({
		page,
		browser,
	}) => {
		const dialogs: string[] = []
		page.on('dialog', (dialog) => {
			dialogs.push(dialog.type())
			void dialog.dismiss()
		})
		await page.goto('/admin/config')
		await waitForHydration(page)
		const bar = page.getByRole('group', { name: 'Announcement bar' })
		await bar.getByLabel('Announcement text').fill('Tree planting moved to Sunday')

		// Meanwhile another admin publishes from another tab.
		const other = await browser.newPage({
			baseURL: server().url,
			storageState: await page.context().storageState(),
		})
		await other.goto('/admin/config')
		await waitForHydration(other)
		const otherBar = other.getByRole('group', { name: 'Announcement bar' })
		await otherBar.getByRole('radio', { name: 'Every reader' }).check()
		await otherBar.getByLabel('Announcement text').fill('Seed swap at the library')
		await other.getByRole('button', { name: 'Publish' }).click()
		await expect(other.getByRole('status')).toHaveText(/Published \(version \d+\)/)
		const theirs = Number(
			/version (\d+)/.exec((await other.getByRole('status').textContent()) ?? '')?.[1],
		)
		await other.close()

		await page.getByRole('button', { name: 'Publish' }).click()
		const refused = page.getByRole('alert')
		await expect(refused).toContainText(
			`Nothing was published: someone else published version ${theirs} while you were changing these.`,
		)
		// What was typed is still there to copy.
		await expect(bar.getByLabel('Announcement text')).toHaveValue('Tree planting moved to Sunday')
		await refused.getByRole('link', { name: 'Load their version' }).click()
		await expect(bar.getByLabel('Announcement text')).toHaveValue('Seed swap at the library')
		await expect(bar.getByRole('radio', { name: 'Every reader' })).toBeChecked()
		await expect(page.locator('.config-version')).toContainText(`Version ${theirs}, published by`)
		await expect(refused).toHaveCount(0)
		// Nothing is left marked unsaved: leaving asks nothing, in the app or from the browser.
		await page
			.getByRole('navigation', { name: 'Editor area' })
			.getByRole('link', { name: 'Articles' })
			.click()
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Articles')
		expect(dialogs).toEqual([])
	})
})

test(
	'every parameter fits 320 px in each staff language, its values as readable as its labels',
	interfaceOnly,
	async ({ page, browser }) => {
		// The site offers the other three languages: a browser asking for one has the staff area in it.
		await page.goto('/admin/settings')
		await waitForHydration(page)
		for (const language of ['Español', 'Français', 'العربية']) {
			await page.getByLabel(language).check()
		}
		await page.getByRole('button', { name: 'Save settings' }).click()
		await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible()

		for (const [locale, lang] of [
			['en-GB', 'en'],
			['es-ES', 'es'],
			['fr-FR', 'fr'],
			['ar-EG', 'ar'],
		] as const) {
			const context = await browser.newContext({
				baseURL: server().url,
				locale,
				storageState: session(),
				viewport: { width: 320, height: 720 },
			})
			const narrow = await context.newPage()
			await narrow.goto('/admin/config/advanced')
			await expect(narrow.locator('html')).toHaveAttribute('lang', lang)
			const width = await narrow.evaluate(() => document.documentElement.scrollWidth)
			expect(width, `document width at 320 px (${lang})`).toBeLessThanOrEqual(320)
			// Beside "Valor predeterminado de la aplicación" a value had a letter's width: a line each.
			const values = await narrow
				.locator('.config-parameters dd')
				.evaluateAll((dds) => dds.map((dd) => dd.getBoundingClientRect().width))
			expect(values.length).toBeGreaterThan(0)
			expect(Math.min(...values), `narrowest value (${lang})`).toBeGreaterThan(200)
			await context.close()
		}
	},
)
