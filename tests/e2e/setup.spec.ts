// A new site's first hours, entirely in the browser: the first admin from the link printed at
// first start, an editor invited from the team page, and that editor's first article, with an
// image, arriving live on a reader's /articles. The setup link is refused once used.

import { pngImage } from '../fixtures/images.ts'
import { expect, serveCanopy, test, waitForHydration } from './canopy-test.ts'

const server = serveCanopy()

test('from the setup link to an invited editor’s first article with an image, seen live by a reader', async ({
	page,
	browser,
	baseURL,
}) => {
	const link = /Make the first admin account \(link valid for one hour\):\n(\S+)/.exec(
		server().output(),
	)?.[1]
	expect(link, server().output()).toMatch(/\/admin\/setup\?token=[\w-]{40,}$/)
	const setupPath = new URL(link ?? '').pathname + new URL(link ?? '').search

	// The operator makes the first admin.
	await page.goto(setupPath)
	await waitForHydration(page)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Set up the site')
	await page.getByLabel('Your name').fill('Ada Lovelace')
	await page.getByLabel('Email address').fill('ada@example.org')
	await page.getByLabel('Password').fill('tidal marsh 4 carbon')
	await page.getByRole('button', { name: 'Make the admin account' }).click()
	// The password's hash is made to cost CPU on purpose: on a busy machine the answer has taken
	// over 5 s (the page still said "Setting up…").
	await expect(page).toHaveURL(/\/admin$/, { timeout: 15_000 })
	await expect(page.getByText('Signed in as')).toContainText('Ada Lovelace')

	// The admin invites an editor.
	const area = page.getByRole('navigation', { name: 'Editor area' })
	await area.getByRole('link', { name: 'Team' }).click()
	await page.getByLabel('Email address').fill('lea@example.org')
	await page.getByLabel('Name', { exact: true }).fill('Lea Park')
	await page.getByLabel('Role', { exact: true }).selectOption('editor')
	await page.getByRole('button', { name: 'Make an invite link' }).click()
	const invite = await page.getByLabel('Invite link for lea@example.org').inputValue()
	expect(invite).toMatch(/\/admin\/invite\?token=/)

	// A reader is watching the articles.
	const reader = await browser.newPage({ baseURL })
	await reader.goto('/articles')
	await waitForHydration(reader)

	// The editor joins from their own browser and writes.
	const editorContext = await browser.newContext({ baseURL })
	const lea = await editorContext.newPage()
	await lea.goto(invite)
	await lea.getByLabel('Password').fill('kelp forests grow fast')
	await lea.getByRole('button', { name: 'Make my account' }).click()
	await expect(lea).toHaveURL(/\/admin$/)
	await waitForHydration(lea)
	await lea.getByRole('link', { name: 'Write a new article' }).click()
	await expect(lea.getByRole('heading', { level: 1 })).toHaveText('New article')
	await lea.getByLabel('Title', { exact: true }).fill('Eelgrass returns to the bay')
	await lea.getByLabel('Summary').fill('Ten years of replanting, and the meadows spread again.')
	await lea.getByLabel('Tags').fill('oceans, restoration')
	await lea.getByLabel('Upload an image (Cover image)').setInputFiles({
		name: 'eelgrass.png',
		mimeType: 'image/png',
		buffer: Buffer.from(pngImage(80, 45, { rgb: [30, 110, 80] })),
	})
	await expect(lea.getByLabel('Cover image', { exact: true })).toHaveValue(/^\/media\//)
	await lea.getByLabel('Cover image description').fill('Green eelgrass under shallow water')
	await lea.getByLabel('Text (Markdown)').fill('## Why it matters\n\nEelgrass shelters young fish.')
	await expect(
		lea.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: 'Why it matters' }),
	).toBeVisible()
	await lea.getByRole('button', { name: 'Publish now' }).click()
	await expect(lea.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()

	const card = reader.locator('article').first()
	await expect(card).toContainText('Eelgrass returns to the bay', { timeout: 5_000 })
	await card.getByRole('link', { name: 'Eelgrass returns to the bay' }).click()
	const cover = reader.getByRole('img', { name: 'Green eelgrass under shallow water' })
	await expect(cover).toBeVisible()
	// Loaded, and shown at its own width (the browser reports a srcset image's natural width
	// scaled to the sizes it was offered for, so that is not the figure to check).
	await expect
		.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
		.toBeGreaterThan(0)
	expect(await cover.evaluate((img: HTMLImageElement) => img.getBoundingClientRect().width)).toBe(
		80,
	)
	await expect(reader.getByText('Lea Park')).toBeVisible()
	await editorContext.close()
	await reader.close()

	// The setup link made one admin and works no more.
	await page.context().clearCookies()
	await page.goto(setupPath)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('This site is set up')
})
