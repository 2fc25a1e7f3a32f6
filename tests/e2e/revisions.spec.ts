// No lost work and a history to go back to, as an editor meets them: a published article's edits
// kept as they are typed but shown to readers only after Update, even when the tab is closed; the
// history of every save with what it changed; a restore that brings back the exact text; and an
// article published with a cover from the keyboard alone.
import type { Locator, Page } from '@playwright/test'
import { pngImage } from '../fixtures/images.ts'
import { expectNoAxeViolations } from './axe-check.ts'
import { expect, interfaceOnly, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { signedInAs } from './signed-in.ts'

const server = serveCanopy()
signedInAs(server, { email: 'ines@example.org', role: 'editor', name: 'Inês Sousa' })

async function publishedArticle(page: Page, title: string, body: string): Promise<string> {
	await page.goto('/admin/articles/new')
	await waitForHydration(page)
	await page.getByLabel('Title', { exact: true }).fill(title)
	await page.getByLabel('Text (Markdown)').fill(body)
	await page.getByRole('button', { name: 'Publish now' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()
	return page.url().replace(/\?.*$/, '')
}

/** A published article opened again in the editor, fresh (no news of the publish), ready to type in. */
async function reopenedArticle(page: Page, title: string, body: string): Promise<string> {
	const url = await publishedArticle(page, title, body)
	await page.goto(url)
	await waitForHydration(page)
	return url
}

test('a published article’s edits are kept as they are typed, live only after Update, and survive a closed tab', async ({
	page,
	context,
}) => {
	const url = await reopenedArticle(page, 'Sea grass meadows', 'Sea grass stores carbon.')
	const slug = 'sea-grass-meadows'
	await page.getByLabel('Text (Markdown)').fill('Sea grass stores carbon, and shelters young fish.')
	await expect(
		page.getByRole('status').filter({ hasText: /Changes saved at .*, not live until you update/ }),
	).toBeVisible({ timeout: 10_000 })
	// The tab is closed: nothing asks, nothing is lost, and readers still see the published text.
	await page.close()
	const reader = await context.browser()?.newPage({ baseURL: server().url })
	if (!reader) throw new Error('no browser')
	await reader.goto(`/articles/${slug}`)
	await expect(reader.getByRole('article')).toContainText('Sea grass stores carbon.')
	await expect(reader.getByRole('article')).not.toContainText('young fish')

	const editor = await context.newPage()
	await editor.goto(url)
	await waitForHydration(editor)
	await expect(editor.getByLabel('Text (Markdown)')).toHaveValue(
		'Sea grass stores carbon, and shelters young fish.',
	)
	await expect(editor.getByRole('note').filter({ hasText: 'readers do not see yet' })).toBeVisible()
	await expectNoAxeViolations(editor)
	await editor.getByRole('button', { name: 'Update the published article' }).click()
	await expect(editor.getByRole('status').filter({ hasText: 'Article updated.' })).toBeVisible()
	await expect(editor.getByRole('note').filter({ hasText: 'readers do not see yet' })).toHaveCount(
		0,
	)
	await reader.reload()
	await expect(reader.getByRole('article')).toContainText('shelters young fish')
	await reader.close()
})

/** The editor's autosaves this page sends (a form of fields, unlike a save's, which carries files). */
function countAutosaves(page: Page): { count: number } {
	const sent = { count: 0 }
	page.on('request', (request) => {
		if (request.method() === 'POST' && /(^|&)intent=autosave(&|$)/.test(request.postData() ?? ''))
			sent.count++
	})
	return sent
}

test('Update pressed straight after typing publishes the edits, and no autosave comes after it as changes not live', async ({
	page,
}) => {
	await reopenedArticle(page, 'Kelp forests', 'Kelp grows fast.')
	const autosaves = countAutosaves(page)
	await page.getByLabel('Text (Markdown)').fill('Kelp grows fast, half a metre a day.')
	await page.getByRole('button', { name: 'Update the published article' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Article updated.' })).toBeVisible()
	// The autosave's delay (2 s) and more: what it would have sent was sent by Update.
	await page.waitForTimeout(3_000)
	expect(autosaves.count).toBe(0)
	await expect(page.getByRole('status').filter({ hasText: 'Article updated.' })).toBeVisible()
	await page.reload()
	await waitForHydration(page)
	await expect(page.getByRole('note').filter({ hasText: 'readers do not see yet' })).toHaveCount(0)
	await expect(page.getByLabel('Text (Markdown)')).toHaveValue(
		'Kelp grows fast, half a metre a day.',
	)
})

test('Publish pressed while an autosave is on its way waits for it, then publishes: no conflict, no stale "Draft saved"', async ({
	page,
}) => {
	await page.goto('/admin/articles/new')
	await waitForHydration(page)
	await page.getByLabel('Title', { exact: true }).fill('Salt marsh birds')
	await page.getByLabel('Text (Markdown)').fill('Redshank nest here.')
	await expect(page.getByRole('status').filter({ hasText: 'Draft saved at' })).toBeVisible({
		timeout: 10_000,
	})
	// The next autosave is held on its way for a second, as on a slow connection.
	const held = new Promise<void>((sent) => {
		void page.route(/\/admin\/articles\/\d+/, async (route) => {
			if (/(^|&)intent=autosave(&|$)/.test(route.request().postData() ?? '')) {
				sent()
				await new Promise((wait) => setTimeout(wait, 1_000))
			}
			await route.continue()
		})
	})
	await page.getByLabel('Text (Markdown)').fill('Redshank and lapwing nest here.')
	await held
	await page.getByRole('button', { name: 'Publish now' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible({
		timeout: 10_000,
	})
	await expect(page.locator('.conflict')).toHaveCount(0)
	await page.waitForTimeout(3_000)
	await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()
	await page.reload()
	await waitForHydration(page)
	await expect(page.getByRole('note').filter({ hasText: 'readers do not see yet' })).toHaveCount(0)
	await expect(page.getByLabel('Text (Markdown)')).toHaveValue('Redshank and lapwing nest here.')
})

test('the history lists every save with what it changed, and a restore brings the text back exactly', async ({
	page,
}) => {
	// Markdown with what a careless round trip would spoil: blank lines, marks, entities, accents,
	// an emoji and a trailing space.
	const original = 'Line one & “two”.\n\n**Estuaries** <em>breathe</em> — ü 🌿 \n\n- a\n- b'
	await page.goto('/admin/articles/new')
	await waitForHydration(page)
	await page.getByLabel('Title', { exact: true }).fill('Estuaries')
	await page.getByLabel('Text (Markdown)').fill(original)
	await page.getByRole('button', { name: 'Save draft' }).click()
	await expect(page).toHaveURL(/\/admin\/articles\/\d+\?saved=draft$/)
	const url = page.url().replace(/\?.*$/, '')
	await waitForHydration(page)
	await page.getByLabel('Text (Markdown)').fill('Estuaries, rewritten from the start.')
	await page.getByLabel('Summary').fill('Where rivers meet the sea.')
	// The first save's "Draft saved." is still shown: wait for this save's own answer.
	const saved = page.waitForResponse(
		(response) => response.request().method() === 'POST' && response.url().startsWith(url),
	)
	await page.getByRole('button', { name: 'Save draft' }).click()
	expect((await saved).ok()).toBe(true)
	await expect(page.getByRole('status').filter({ hasText: 'Draft saved.' })).toBeVisible()

	await page.getByRole('link', { name: 'History' }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('History of “Estuaries”')
	const revisions = page.getByRole('navigation', { name: 'Revisions' }).getByRole('listitem')
	await expect(revisions).toHaveCount(2)
	await expect(revisions.first()).toContainText('Saved')
	await expect(revisions.first()).toContainText('by Inês Sousa')
	await expect(revisions.first()).toContainText('Text, Summary')
	// The newest save, chosen: what it took out and put in.
	const detail = page.locator('.revision-detail')
	await expect(detail.locator('del').first()).toBeVisible()
	await expect(detail.locator('ins').filter({ hasText: 'rewritten' })).toBeVisible()
	await expectNoAxeViolations(page)

	await revisions.last().getByRole('link').click()
	await expect(page).toHaveURL(/\?revision=\d+$/)
	await page.getByRole('link', { name: 'Compare with the article as it stands' }).click()
	await expect(detail.getByRole('heading', { name: 'Summary' })).toBeVisible()
	await page.getByRole('button', { name: 'Restore this version' }).click()
	await expect(page).toHaveURL(`${url}?saved=restore`)
	await expect(page.getByRole('status').filter({ hasText: 'Restored' })).toBeVisible()
	await expect(page.getByLabel('Text (Markdown)')).toHaveValue(original)
	await expect(page.getByLabel('Summary')).toHaveValue('')

	// The restore is in the history too, naming what it did.
	await page.getByRole('link', { name: 'History' }).click()
	await expect(revisions).toHaveCount(3)
	await expect(revisions.first()).toContainText('Restored')
	await expect(revisions.first()).toContainText('an earlier revision brought back')
})

test('the history fits a phone', interfaceOnly, async ({ page }) => {
	await page.setViewportSize({ width: 320, height: 640 })
	const url = await publishedArticle(page, 'Wet meadows', 'Meadows that flood in winter.')
	await page.goto(`${url}/history`)
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
	const overflow = await page.evaluate(
		() => document.documentElement.scrollWidth - document.documentElement.clientWidth,
	)
	expect(overflow).toBeLessThanOrEqual(0)
	await expect(page.getByRole('navigation', { name: 'Revisions' })).toContainText('Published')
})

/** Presses Tab until `target` has focus: reachable by keyboard, or the test fails. */
async function tabTo(page: Page, target: Locator, most = 80) {
	for (let presses = 0; presses < most; presses++) {
		if (await target.evaluate((element) => element === document.activeElement)) return
		await page.keyboard.press('Tab')
	}
	throw new Error(`not reached by Tab in ${most} presses: ${target}`)
}

test('an article with a cover and two tags is published from the keyboard alone', async ({
	page,
}) => {
	await page.goto('/admin/articles/new')
	await waitForHydration(page)
	await tabTo(page, page.getByLabel('Title', { exact: true }))
	await page.keyboard.type('Typed, tagged and published by keyboard')
	await tabTo(page, page.getByLabel('Text (Markdown)'))
	await page.keyboard.type('Every step without a mouse.')
	await tabTo(page, page.getByLabel('Tags'))
	await page.keyboard.type('keyboard, access')
	// The cover's file picker opens from the keyboard; the browser's dialog is the test's to answer.
	await tabTo(page, page.getByLabel('Upload an image (Cover image)'))
	// Headless Chromium now and then drops the first key on a file input (about one run in
	// five on a busy machine); a second key, still from the keyboard, opens it.
	let chooser = page.waitForEvent('filechooser', { timeout: 5_000 })
	await page.keyboard.press('Space')
	const opened = await chooser.catch(async () => {
		chooser = page.waitForEvent('filechooser', { timeout: 10_000 })
		await page.keyboard.press('Enter')
		return chooser
	})
	await opened.setFiles({
		name: 'cover.png',
		mimeType: 'image/png',
		buffer: Buffer.from(pngImage(40, 30)),
	})
	await expect(page.getByLabel('Cover image', { exact: true })).toHaveValue(/^\/media\//, {
		timeout: 15_000,
	})
	await tabTo(page, page.getByLabel('Cover image description'))
	await page.keyboard.type('Hands on a keyboard')
	await tabTo(page, page.getByRole('button', { name: 'Publish now' }))
	await page.keyboard.press('Enter')
	await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()
	const reader = await page.context().newPage()
	await reader.goto('/articles/typed-tagged-and-published-by-keyboard')
	await expect(reader.getByRole('img', { name: 'Hands on a keyboard' }).first()).toBeVisible()
	await expect(reader.getByRole('link', { name: 'keyboard', exact: true }).first()).toBeVisible()
	await expect(reader.getByRole('link', { name: 'access', exact: true }).first()).toBeVisible()
	await reader.close()
})

test('discarding a published article’s pending edits brings the live text back, and says so', async ({
	page,
}) => {
	await reopenedArticle(page, 'Chalk streams', 'Chalk streams run clear.')
	await page.getByLabel('Text (Markdown)').fill('Chalk streams run clear and cold.')
	await expect(
		page.getByRole('status').filter({ hasText: /not live until you update/ }),
	).toBeVisible({ timeout: 10_000 })
	await page.reload()
	await waitForHydration(page)
	await page.getByRole('button', { name: 'Discard these changes' }).click()
	await expect(page.getByLabel('Text (Markdown)')).toHaveValue('Chalk streams run clear.')
	await expect(
		page
			.getByRole('status')
			.filter({ hasText: 'Changes discarded: the form holds the live text again.' }),
	).toBeVisible()
	await expect(page.getByRole('note').filter({ hasText: 'readers do not see yet' })).toHaveCount(0)
})

test.describe('two editors at once', () => {
	// The refused autosave is the form's 409 answer, which the browser reports.
	test.use({ expectedConsoleError: /status of 409 \(Conflict\)/ })

	test('edits kept but not live are never replaced by another editor’s: the one behind is told, and keeps what was typed', async ({
		page,
		browser,
	}) => {
		const url = await reopenedArticle(page, 'Peat bogs', 'Peat grows a millimetre a year.')
		// A second editor opens the same published article before the first one's edits are kept.
		const other = await browser.newPage({
			baseURL: server().url,
			storageState: await page.context().storageState(),
		})
		await other.goto(url)
		await waitForHydration(other)

		await page
			.getByLabel('Text (Markdown)')
			.fill('Peat grows a millimetre a year, and stores carbon.')
		await expect(
			page.getByRole('status').filter({ hasText: /not live until you update/ }),
		).toBeVisible()
		await other.getByLabel('Summary').fill('Slow soil.')
		const refused = other.getByRole('alert').filter({ hasText: 'saved changes to this article' })
		await expect(refused).toContainText('Inês Sousa saved changes to this article')
		await expect(refused).toContainText('Your changes are not saved')
		await expect(other.getByLabel('Summary')).toHaveValue('Slow soil.')
		// Update from the tab behind is refused too: the first editor's edits are not thrown away.
		await other.getByRole('button', { name: 'Update the published article' }).click()
		await expect(refused).toBeVisible()
		await other.close()

		// The first editor's edits are the ones kept, and Update makes them live.
		await page.reload()
		await waitForHydration(page)
		await expect(page.getByLabel('Text (Markdown)')).toHaveValue(
			'Peat grows a millimetre a year, and stores carbon.',
		)
		await expect(page.getByLabel('Summary')).toHaveValue('')
		await page.getByRole('button', { name: 'Update the published article' }).click()
		await expect(page.getByRole('status').filter({ hasText: 'Article updated.' })).toBeVisible()
	})
})
