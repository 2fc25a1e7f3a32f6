// Writing in the editor area, as an editor does it: a new article with a live preview, saved as
// a draft, published to a reader watching /articles; autosave, the guard on leaving, someone
// else's newer save, scheduling, and deleting.
import type { Browser, Page } from '@playwright/test'
import { pngImage } from '../fixtures/images.ts'
import { expectNoAxeViolations } from './axe-check.ts'
import {
	expect,
	interfaceOnly,
	isSameDocument,
	markDocument,
	serveCanopy,
	test,
	waitForHydration,
} from './canopy-test.ts'
import { signedInAs } from './signed-in.ts'

const server = serveCanopy()

// Chromium logs a refused save's status (400 invalid, 409 conflict) and a refused upload's (415)
// as a console error.
test.use({ expectedConsoleError: /status of (40[09]|415)/ })
const email = 'rosa@example.org'

const session = signedInAs(server, { email, role: 'editor', name: 'Rosa Lima' })

async function signIn(page: Page, next = '/admin/articles') {
	await page.goto(next)
	await expect(page).toHaveURL(new RegExp(`${next.replace(/[/?]/g, '\\$&')}$`))
	await waitForHydration(page)
}

async function readerWatching(browser: Browser) {
	const reader = await browser.newPage({ baseURL: server().url })
	await reader.goto('/articles')
	await waitForHydration(reader)
	return reader
}

async function newDraft(page: Page, title: string, body = 'A first paragraph about the marsh.') {
	await page.goto('/admin/articles/new')
	await waitForHydration(page)
	await page.getByLabel('Title', { exact: true }).fill(title)
	await page.getByLabel('Summary').fill(`Summary of ${title}.`)
	await page.getByLabel('Text (Markdown)').fill(body)
	await page.getByRole('button', { name: 'Save draft' }).click()
	await expect(page).toHaveURL(/\/admin\/articles\/\d+\?saved=draft$/)
	await expect(page.getByRole('status').filter({ hasText: 'Draft saved.' })).toBeVisible()
	return page.url().replace(/\?.*$/, '')
}

test('an editor writes an article with a live preview and publishes it to a reader watching /articles', async ({
	page,
	browser,
}) => {
	const reader = await readerWatching(browser)
	await signIn(page)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Articles')
	await expect(page.getByRole('table')).toContainText('Half a Degree Matters')
	await expectNoAxeViolations(page)

	await page.getByRole('main').getByRole('link', { name: 'New article' }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('New article')
	await page.getByLabel('Title', { exact: true }).fill('Saltmarsh carbon')
	await page.getByLabel('Summary').fill('Salt marshes bury carbon faster than forests.')
	await page.getByLabel('Tags').fill('coasts, carbon')
	await page
		.getByLabel('Text (Markdown)')
		.fill('## Blue carbon\n\nMarshes trap **sediment**.\n\n<script>window.__pwned = 1</script>')
	const preview = page.getByRole('region', { name: 'Preview' })
	await expect(preview.getByRole('heading', { name: 'Blue carbon' })).toBeVisible()
	await expect(preview.locator('strong')).toHaveText('sediment')
	expect(await preview.locator('script').count()).toBe(0)
	await expectNoAxeViolations(page)

	// A cover image: uploaded as it is chosen, and its description required.
	await page.getByLabel('Upload an image (Cover image)').setInputFiles({
		name: 'marsh.png',
		mimeType: 'image/png',
		buffer: Buffer.from(pngImage(64, 40, { rgb: [40, 120, 90] })),
	})
	await expect(page.getByLabel('Cover image', { exact: true })).toHaveValue(
		/^\/media\/[0-9a-f]{64}\.png$/,
	)
	await page.getByLabel('Cover image description').fill('A salt marsh at low tide')

	// A slug another article holds is refused as it is typed.
	await page.getByLabel('Address (slug)').fill('half-a-degree-matters')
	await expect(page.getByText('Another article or page already uses this address.')).toBeVisible()
	await page.getByLabel('Address (slug)').fill('saltmarsh-carbon')
	await expect(page.getByText('Another article or page already uses this address.')).toBeHidden()

	await page.getByRole('button', { name: 'Save draft' }).click()
	await expect(page).toHaveURL(/\/admin\/articles\/\d+\?saved=draft$/)
	await expect(page.getByText('Draft: only editors can see it.')).toBeVisible()
	await expect(reader.getByRole('heading', { name: 'Saltmarsh carbon' })).toHaveCount(0)

	await page.getByRole('button', { name: 'Publish now' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()
	await expect(reader.locator('article').first()).toContainText('Saltmarsh carbon', {
		timeout: 5_000,
	})
	expect(await reader.evaluate(() => Reflect.get(window, '__pwned'))).toBeUndefined()
	await reader.close()

	await page.getByRole('link', { name: 'View it on the site' }).click()
	await expect(page).toHaveURL(/\/articles\/saltmarsh-carbon$/)
	await expect(page.getByRole('heading', { level: 2, name: 'Blue carbon' })).toBeVisible()
	const cover = page.getByRole('img', { name: 'A salt marsh at low tide' })
	await expect(cover).toHaveAttribute('src', /^\/media\/[0-9a-f]{64}\.png$/)
	await expect(cover).toHaveAttribute('width', '64')
	await expect
		.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
		.toBeGreaterThan(0)
	expect(await cover.evaluate((img: HTMLImageElement) => img.getBoundingClientRect().width)).toBe(
		64,
	)
})

/** Hands the text field a file as the browser does for a paste or a drop. */
async function giveFile(
	page: Page,
	how: 'paste' | 'drop',
	file: { name: string; type: string; bytes: Uint8Array },
) {
	await page.getByLabel('Text (Markdown)').evaluate(
		(field, { how, name, type, bytes }) => {
			const transfer = new DataTransfer()
			transfer.items.add(new File([new Uint8Array(bytes)], name, { type }))
			const init = { bubbles: true, cancelable: true }
			field.dispatchEvent(
				how === 'paste'
					? new ClipboardEvent('paste', { ...init, clipboardData: transfer })
					: new DragEvent('drop', { ...init, dataTransfer: transfer }),
			)
		},
		{ how, ...file, bytes: [...file.bytes] },
	)
}

test(
	'an editor pastes and drops photos into the text, describes them, and readers get a picture',
	interfaceOnly,
	async ({ page, browser }) => {
		await signIn(page, '/admin/articles/new')
		await page.getByLabel('Title', { exact: true }).fill('Herons of the estuary')
		await page.getByLabel('Summary').fill('A dawn count.')
		const text = page.getByLabel('Text (Markdown)')
		await text.fill('We counted at dawn.')
		await text.press('End')

		await giveFile(page, 'paste', {
			name: 'heron.png',
			type: 'image/png',
			bytes: pngImage(900, 600, { rgb: [90, 110, 120] }),
		})
		await expect(text).toHaveValue(
			/^We counted at dawn\.\n\n!\[\]\(\/media\/[0-9a-f]{64}\.png\)\n\n$/,
		)
		await expect(
			page.getByRole('status').filter({ hasText: 'heron.png is in the text' }),
		).toBeVisible()
		// The caret waits between the brackets: the description is typed straight in.
		await page.keyboard.type('A grey heron in the reeds')
		await expect(text).toHaveValue(/!\[A grey heron in the reeds\]\(\/media\/[0-9a-f]{64}\.png\)/)
		const preview = page.getByRole('region', { name: 'Preview' })
		await expect(preview.getByRole('img', { name: 'A grey heron in the reeds' })).toBeVisible()

		await text.press('ControlOrMeta+End')
		await giveFile(page, 'drop', {
			name: 'mudflat.png',
			type: 'image/png',
			bytes: pngImage(640, 480, { rgb: [150, 130, 90] }),
		})
		await expect(text).toHaveValue(/!\[\]\(\/media\/[0-9a-f]{64}\.png\)\n\n$/)
		// A file that is not an image is refused in words, and leaves the text as it was.
		const before = await text.inputValue()
		await giveFile(page, 'paste', {
			name: 'notes.png',
			type: 'image/png',
			bytes: new TextEncoder().encode('just some notes'),
		})
		await expect(page.getByRole('alert').filter({ hasText: 'notes.png:' })).toContainText(
			'not a PNG, JPEG, WebP or AVIF image',
		)
		await expect(text).toHaveValue(before)

		// Publishing refuses the dropped photo without a description, and says how to give one.
		await page.getByRole('button', { name: 'Save draft' }).click()
		await expect(page).toHaveURL(/\/admin\/articles\/\d+\?saved=draft$/)
		await page.getByRole('button', { name: 'Publish now' }).click()
		await expect(
			page.locator('.field-error').filter({ hasText: 'An image in the text has no description' }),
		).toBeVisible()
		await text.fill(
			(await text.inputValue()).replace(
				/!\[\]\((\/media\/[0-9a-f]{64}\.png)\)/,
				'![Mudflats at low tide]($1 "The estuary at 6 a.m.")',
			),
		)
		await page.getByRole('button', { name: 'Publish now' }).click()
		await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()

		const reader = await browser.newPage({
			baseURL: server().url,
			viewport: { width: 390, height: 844 },
		})
		await reader.goto('/articles/herons-of-the-estuary')
		const figure = reader.getByRole('figure')
		await expect(figure.locator('figcaption')).toHaveText('The estuary at 6 a.m.')
		await expect(figure.locator('source[type="image/avif"]')).toHaveAttribute(
			'srcset',
			/-480\.avif 480w, .*-640\.avif 640w$/,
		)
		const heron = reader.getByRole('img', { name: 'A grey heron in the reeds' })
		await expect(heron).toHaveAttribute('width', '900')
		await expect(heron).toHaveAttribute('loading', 'lazy')
		await heron.scrollIntoViewIfNeeded()
		// A phone takes the 480 px AVIF; the server sends the image itself until the version is made.
		await expect
			.poll(() => heron.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
			.toBeGreaterThan(0)
		expect(await heron.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/-480\.avif$/)
		await reader.close()
	},
)

test('an editor makes an About page that readers find at /about, and not among the articles', async ({
	page,
}) => {
	await signIn(page, '/admin/pages')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pages')
	await page.getByRole('link', { name: 'New page' }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('New page')
	await waitForHydration(page)
	// No tags and no push notice for a page.
	await expect(page.getByLabel('Tags')).toHaveCount(0)
	await expect(page.getByText('Notify subscribers')).toHaveCount(0)
	await page.getByLabel('Title', { exact: true }).fill('About us')
	await page
		.getByLabel('Text (Markdown)')
		.fill('We are volunteers who **count birds** on the estuary.')
	await page.getByLabel('Address (slug)').fill('contact')
	// Said as it is typed, before anything is sent; and again, once, when Publish is refused.
	const reserved = page
		.locator('.field-error')
		.filter({ hasText: 'is one of the site’s own addresses (/contact)' })
	await expect(reserved).toBeVisible()
	await page.getByRole('button', { name: 'Publish now' }).click()
	await expect(reserved).toHaveCount(1)
	await expect(page.getByRole('alert', { name: 'The page was not published.' })).toContainText(
		'is one of the site’s own addresses',
	)
	await page.getByLabel('Address (slug)').fill('about')
	await expect(page.getByText("The page's address: /about.")).toBeVisible()
	await page.getByRole('button', { name: 'Publish now' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()
	await page.getByRole('link', { name: 'View it on the site' }).click()
	await expect(page).toHaveURL(/\/about$/)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('About us')
	await expect(page.locator('.prose strong')).toHaveText('count birds')
	await expectNoAxeViolations(page)
	await page.goto('/articles')
	await expect(page.getByRole('heading', { name: 'About us' })).toHaveCount(0)
})

test(
	'a new article saves itself from its first words, its address following the title, and a closed tab loses nothing saved',
	interfaceOnly,
	async ({ browser, page }) => {
		await signIn(page, '/admin/articles/new')
		await page.getByLabel('Title', { exact: true }).fill('Rivers run')
		await page.getByLabel('Text (Markdown)').fill('Otters are back on the Ouse.')
		// Within 3 s of the last keystroke it is a draft, at an address of its own; the page stays.
		await markDocument(page)
		await expect(page).toHaveURL(/\/admin\/articles\/\d+$/, { timeout: 3_000 })
		await expect(page.getByRole('status').filter({ hasText: 'Draft saved at' })).toBeVisible()
		expect(await isSameDocument(page)).toBe(true)
		await expect(page.getByLabel('Text (Markdown)')).toBeEditable()
		const draft = page.url()
		// Typing on: the same draft, not another; its address follows the title until published.
		await page.getByLabel('Title', { exact: true }).fill('Rivers run clear')
		await page.getByLabel('Text (Markdown)').fill('Otters are back on the Ouse, and kingfishers.')
		// The autosave's request (React Router's single fetch: the draft's address with .data).
		const saved = page.waitForResponse(
			(response) =>
				response.request().method() === 'POST' &&
				new URL(response.url()).pathname === `${new URL(draft).pathname}.data`,
		)
		expect((await saved).status()).toBe(200)
		await page.close()

		const again = await browser.newPage({ baseURL: server().url, storageState: session() })
		try {
			await again.goto(draft)
			await expect(again.getByLabel('Title', { exact: true })).toHaveValue('Rivers run clear')
			await expect(again.getByLabel('Text (Markdown)')).toHaveValue(
				'Otters are back on the Ouse, and kingfishers.',
			)
			await expect(again.getByLabel('Address (slug)')).toHaveValue('rivers-run-clear')
			await again.goto('/admin/articles?status=draft')
			await expect(again.getByRole('link', { name: /^Rivers run/ })).toHaveCount(1)
		} finally {
			await again.close()
		}
	},
)

test(
	'text typed before any title is saved too, as an untitled draft',
	interfaceOnly,
	async ({ page }) => {
		await signIn(page, '/admin/articles/new')
		await page.getByLabel('Text (Markdown)').fill('A thought before its title.')
		await expect(page).toHaveURL(/\/admin\/articles\/\d+$/, { timeout: 3_000 })
		await expect(page.getByRole('status').filter({ hasText: 'Draft saved at' })).toBeVisible()
		await page.reload()
		await expect(page.getByLabel('Text (Markdown)')).toHaveValue('A thought before its title.')
		await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Untitled draft')
	},
)

test(
	'an autosave the server refuses says so where "Draft saved" was, and the edits stay unsaved',
	interfaceOnly,
	async ({ page }) => {
		await signIn(page, '/admin/articles/new')
		await page.getByLabel('Title', { exact: true }).fill('Salt marsh rising')
		await page.getByLabel('Text (Markdown)').fill('Salt marshes build up with the sea.')
		await expect(page).toHaveURL(/\/admin\/articles\/\d+$/, { timeout: 3_000 })
		const status = page.locator('.editor-status')
		await expect(status).toContainText('Draft saved at')
		// A draft keeps its text: emptied, the next autosave is refused (400), and said to be.
		const refused = page.waitForResponse(
			(response) => response.request().method() === 'POST' && response.status() === 400,
		)
		await page.getByLabel('Text (Markdown)').fill('')
		await refused
		await expect(status).toHaveText('Not saved yet: The article has no text.')
		await expect(status).toHaveAttribute('role', 'status')
		// Still unsaved: leaving asks first.
		await page
			.getByRole('navigation', { name: 'Editor area' })
			.getByRole('link', { name: 'Pages' })
			.click()
		await expect(page.getByRole('alertdialog')).toContainText('You have unsaved changes.')
	},
)

test(
	'a cover without its description does not stop the text being autosaved: the status says what waits',
	interfaceOnly,
	async ({ page }) => {
		await signIn(page, '/admin/articles/new')
		await page.getByLabel('Title', { exact: true }).fill('Wet meadows')
		await page.getByLabel('Text (Markdown)').fill('Wet meadows flood in winter.')
		await expect(page).toHaveURL(/\/admin\/articles\/\d+$/, { timeout: 3_000 })
		const status = page.locator('.editor-status')
		await expect(status).toContainText('Draft saved at')
		await page.getByLabel('Cover image', { exact: true }).fill('/logo.svg')
		await page.getByLabel('Text (Markdown)').fill('Wet meadows flood in winter, and snipe nest.')
		await expect(status).toContainText('Draft saved at')
		await expect(status).toContainText('Not saved until fixed: Describe the cover image')
		// The text is saved: it comes back on a reload; the cover waits for its description.
		await page.reload()
		await waitForHydration(page)
		await expect(page.getByLabel('Text (Markdown)')).toHaveValue(
			'Wet meadows flood in winter, and snipe nest.',
		)
		await expect(page.getByLabel('Cover image', { exact: true })).toHaveValue('')
	},
)

test(
	'text in another script than the article’s language is pointed out at the language field',
	interfaceOnly,
	async ({ page }) => {
		await signIn(page, '/admin/articles/new')
		const language = page.getByLabel('Written in')
		await page
			.getByLabel('Text (Markdown)')
			.fill('Когда болото осушают, торф начинает окисляться и выделять углекислый газ.')
		// The site's language is English: the text is Cyrillic.
		await expect(language).toHaveAccessibleDescription(
			/The text seems to be in Cyrillic script, which English is not written in\./,
		)
		await language.selectOption('ru')
		await expect(language).not.toHaveAccessibleDescription(/seems to be in/)
		await language.selectOption('')
		await expect(language).toHaveAccessibleDescription(/seems to be in Cyrillic/)
		await page.getByLabel('Text (Markdown)').fill('Peat holds carbon for thousands of years.')
		await expect(language).not.toHaveAccessibleDescription(/seems to be in/)
		// The first choice says how it differs from English chosen by name.
		await expect(language.locator('option').first()).toHaveText('The site’s (English)')
		await expect(language).toHaveAccessibleDescription(
			'“The site’s” changes with the site’s language; a language chosen by its name stays.',
		)
		await expectNoAxeViolations(page)
	},
)

test(
	'Save pressed after a new article’s first autosave saves that draft, not a second one',
	interfaceOnly,
	async ({ page }) => {
		await signIn(page, '/admin/articles/new')
		await page.getByLabel('Title', { exact: true }).fill('Mangrove roots')
		await page.getByLabel('Text (Markdown)').fill('Mangroves shelter young fish.')
		await expect(page).toHaveURL(/\/admin\/articles\/\d+$/, { timeout: 3_000 })
		// The page is the draft's now, and says so, as its own page does.
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit “Mangrove roots”')
		await expect(page).toHaveTitle('Mangrove roots · Editor · Canopy')
		const draft = new URL(page.url()).pathname
		await page.getByLabel('Summary').fill('Forests at the tide line.')
		await page.getByRole('button', { name: 'Save draft' }).click()
		await expect(page).toHaveURL(new RegExp(`${draft}\\?saved=draft$`))
		await expect(page.getByRole('status').filter({ hasText: 'Draft saved.' })).toBeVisible()
		await expect(page.getByLabel('Summary')).toHaveValue('Forests at the tide line.')
		await page.goto('/admin/articles?status=draft')
		await expect(page.getByRole('link', { name: 'Mangrove roots' })).toHaveCount(1)
	},
)

test(
	'a refused save’s messages go as the fields are mended, and its summary once the draft saves itself',
	interfaceOnly,
	async ({ page }) => {
		await signIn(page, '/admin/articles/new')
		await page.getByRole('button', { name: 'Save draft' }).click()
		const summary = page.getByRole('alert').filter({ hasText: 'The article was not saved.' })
		await expect(summary).toBeFocused()
		await expect(summary).toContainText('Title: Give the article a title.')
		await expect(summary).toContainText('Text (Markdown): The article has no text.')
		const title = page.getByLabel('Title', { exact: true })
		const text = page.getByLabel('Text (Markdown)')
		await expect(title).toHaveAttribute('aria-invalid', 'true')
		await expect(text).toHaveAttribute('aria-invalid', 'true')
		// Mended field by field: each field's own message goes as it is changed, and focus stays
		// where the editor types (the summary does not take it back).
		await title.fill('Hedgerows as corridors')
		await expect(title).not.toHaveAttribute('aria-invalid')
		await expect(page.getByText('Give the article a title.', { exact: true })).toHaveCount(0)
		await expect(text).toHaveAttribute('aria-invalid', 'true')
		await expect(title).toBeFocused()
		await text.fill('Dormice cross the farm along them.')
		await expect(text).not.toHaveAttribute('aria-invalid')
		// The draft saved itself: nothing says it was not.
		await expect(page).toHaveURL(/\/admin\/articles\/\d+$/, { timeout: 3_000 })
		await expect(page.getByRole('status').filter({ hasText: 'Draft saved at' })).toBeVisible()
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(
			'Edit “Hedgerows as corridors”',
		)
		await expect(summary).toHaveCount(0)
		// (The upload fields' own live regions are there, empty.)
		await expect(page.locator('.field-error').filter({ hasText: /\S/ })).toHaveCount(0)
		await expect(page.locator('[aria-invalid="true"]')).toHaveCount(0)
	},
)

test('a draft’s address follows its title until it is first published, then stays', async ({
	page,
	browser,
}) => {
	await newDraft(page, 'First working title')
	const slug = page.getByLabel('Address (slug)')
	await expect(slug).toHaveValue('first-working-title')
	await expect(slug).toHaveAccessibleDescription(/It follows the title until the article is first/)
	// On the draft's own page, a Save of a new title moves the address with it.
	await page.getByLabel('Title', { exact: true }).fill('Better final title')
	await page.getByRole('button', { name: 'Save draft' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Draft saved.' })).toBeVisible()
	await expect(slug).toHaveValue('better-final-title')
	await page.getByRole('button', { name: 'Publish now' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'View it on the site' })).toHaveAttribute(
		'href',
		'/articles/better-final-title',
	)
	const reader = await browser.newPage({ baseURL: server().url })
	try {
		expect((await reader.goto('/articles/better-final-title'))?.status()).toBe(200)
		expect((await reader.goto('/articles/first-working-title'))?.status()).toBe(404)
	} finally {
		await reader.close()
	}
	// Published, the address stays whatever the title becomes.
	await page.getByLabel('Title', { exact: true }).fill('A title after publishing')
	await page.getByRole('button', { name: 'Update the published article' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Article updated.' })).toBeVisible()
	await expect(slug).toHaveValue('better-final-title')
	await expect(slug).not.toHaveAccessibleDescription(/It follows the title/)

	// An address typed by hand is the editor's: the title no longer moves it, on a later visit too.
	const saveDraft = async () => {
		const saved = page.waitForResponse(
			(response) => response.request().method() === 'POST' && response.status() === 200,
		)
		await page.getByRole('button', { name: 'Save draft' }).click()
		await saved
	}
	await newDraft(page, 'Hand-named draft')
	await slug.fill('my-own-address')
	await saveDraft()
	await page.reload()
	await waitForHydration(page)
	await expect(slug).toHaveValue('my-own-address')
	await page.getByLabel('Title', { exact: true }).fill('Hand-named draft, renamed')
	await saveDraft()
	await page.reload()
	await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Hand-named draft, renamed')
	await expect(slug).toHaveValue('my-own-address')
})

test(
	'an Arabic article is previewed right to left, and its title and address are kept whole beside the editor’s words',
	interfaceOnly,
	async ({ page }) => {
		const title = 'غابات الضباب: من يحرس الماء؟'
		await signIn(page, '/admin/articles/new')
		const prose = page.locator('.editor-preview .prose')
		// Before a language is chosen: the site's (English), left to right.
		await expect(prose).toHaveAttribute('lang', 'en')
		await expect(prose).toHaveAttribute('dir', 'ltr')
		await page.getByLabel('Written in').selectOption('ar')
		await expect(prose).toHaveAttribute('lang', 'ar')
		await expect(prose).toHaveAttribute('dir', 'rtl')
		await page.getByLabel('Title', { exact: true }).fill(title)
		await page.getByLabel('Text (Markdown)').fill('تحتجز غابات الضباب الماء من السحب.')
		await expect(prose.locator('p')).toHaveText('تحتجز غابات الضباب الماء من السحب.')
		await expect(page).toHaveURL(/\/admin\/articles\/\d+$/, { timeout: 3_000 })
		// The heading quotes the title in an isolate of its own: its "؟" stays at its end.
		const heading = page.getByRole('heading', { level: 1 })
		await expect(heading).toHaveText(`Edit “${title}”`)
		await expect(heading.locator('bdi')).toHaveText(title)

		// Opened again: the stored language, and the address isolated in its field's hint.
		await page.reload()
		await waitForHydration(page)
		await expect(prose).toHaveAttribute('lang', 'ar')
		await expect(prose).toHaveAttribute('dir', 'rtl')
		await expect(heading.locator('bdi')).toHaveText(title)
		const address = page.locator('#slug-hint bdi')
		await expect(address).toHaveText('/articles/غابات-الضباب-من-يحرس-الماء')
		await expect(address).toHaveAttribute('dir', 'ltr')
		await expect(page.locator('.danger bdi')).toHaveText(title)
		// Back to the site's language: the preview follows the field.
		await page.getByLabel('Written in').selectOption('')
		await expect(prose).toHaveAttribute('lang', 'en')
		await expect(prose).toHaveAttribute('dir', 'ltr')
		await expectNoAxeViolations(page)
	},
)

test(
	'a draft is previewed as readers will see it, at a phone’s width and a wide screen’s',
	interfaceOnly,
	async ({ page }) => {
		await signIn(page)
		const url = await newDraft(page, 'Kelp forests', 'Kelp grows **half a metre** a day.')
		const link = page.getByRole('link', { name: 'Preview (opens in a new tab)' })
		await expect(link).toHaveAttribute('target', '_blank')
		const [preview] = await Promise.all([page.context().waitForEvent('page'), link.click()])
		await expect(preview).toHaveURL(/\/admin\/articles\/\d+\/preview$/)
		await expect(preview.getByRole('heading', { level: 1 })).toHaveText('Preview: Kelp forests')
		const frame = preview.frameLocator('iframe.preview-frame')
		// The reader's page: the public header, the article, its text rendered.
		await expect(frame.locator('a.site-title')).toBeVisible()
		await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Kelp forests')
		await expect(frame.locator('.prose strong')).toHaveText('half a metre')
		await expect(frame.getByRole('note')).toContainText('Preview of a draft')
		const frameWidth = () =>
			preview
				.locator('iframe.preview-frame')
				.evaluate((el: HTMLIFrameElement) => el.contentWindow?.innerWidth ?? 0)
		expect(await frameWidth()).toBeGreaterThan(600)
		await preview.getByRole('link', { name: 'Phone (390 px)' }).click()
		await expect(preview).toHaveURL(/\?width=phone$/)
		await expect.poll(frameWidth).toBeLessThanOrEqual(390)
		expect(await frameWidth()).toBeGreaterThanOrEqual(380)
		// At a phone's width the page lays itself out for a phone: nothing wider than the screen.
		await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Kelp forests')
		const scrolls = await preview
			.locator('iframe.preview-frame')
			.evaluate((el: HTMLIFrameElement) => {
				const root = el.contentDocument?.documentElement
				return root ? root.scrollWidth - root.clientWidth : -1
			})
		expect(scrolls).toBe(0)
		// The editor's page around the frame, and the framed page on its own.
		await expectNoAxeViolations(preview, 'the preview’s page', ['iframe'])
		const framed = await preview.locator('iframe.preview-frame').getAttribute('src')
		await preview.goto(framed ?? '')
		await expect(preview.getByRole('note')).toContainText('Preview of a draft')
		await expectNoAxeViolations(preview, 'the previewed page')
		await preview.close()
		// Readers cannot see it.
		await page.goto(url)
		const slug = await page.getByLabel('Address (slug)').inputValue()
		const reader = await page.context().browser()?.newPage({ baseURL: server().url })
		try {
			const answer = await reader?.goto(`/articles/${slug}`)
			expect(answer?.status()).toBe(404)
		} finally {
			await reader?.close()
		}
	},
)

test(
	'a draft saves itself while the editor types, and survives a reload',
	interfaceOnly,
	async ({ page }) => {
		await signIn(page)
		const url = await newDraft(page, 'Peat bogs')
		await page.getByLabel('Text (Markdown)').fill('Peat holds a third of soil carbon.')
		await expect(page.getByRole('status').filter({ hasText: 'Draft saved at' })).toBeVisible({
			timeout: 10_000,
		})
		await page.goto(url)
		await expect(page.getByLabel('Text (Markdown)')).toHaveValue(
			'Peat holds a third of soil carbon.',
		)
	},
)

test('leaving with unsaved changes asks first', interfaceOnly, async ({ page }) => {
	await signIn(page)
	const url = await newDraft(page, 'Kelp forests')
	await page.getByRole('button', { name: 'Publish now' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()
	// The page's timers stopped: its autosave (which keeps a published article's edits pending)
	// would otherwise make the change safe, and leaving would not need to ask.
	await page.clock.install()
	await page.goto(url)
	await waitForHydration(page)
	await page.clock.pauseAt(Date.now() + 1_000)
	await page.getByLabel('Title', { exact: true }).fill('Kelp forests, revised')
	await page
		.getByRole('navigation', { name: 'Editor area' })
		.getByRole('link', { name: 'Articles' })
		.click()
	const ask = page.getByRole('alertdialog')
	await expect(ask).toContainText('You have unsaved changes.')
	// From the keyboard: the question has the focus on its safe answer, and Escape stays.
	const stay = ask.getByRole('button', { name: 'Stay and keep editing' })
	await expect(stay).toBeFocused()
	await page.keyboard.press('Escape')
	await expect(ask).toHaveCount(0)
	await expect(
		page.getByRole('navigation', { name: 'Editor area' }).getByRole('link', { name: 'Articles' }),
	).toBeFocused()
	await page
		.getByRole('navigation', { name: 'Editor area' })
		.getByRole('link', { name: 'Articles' })
		.click()
	await ask.getByRole('button', { name: 'Stay and keep editing' }).click()
	await expect(page).toHaveURL(url)
	await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Kelp forests, revised')

	await page
		.getByRole('navigation', { name: 'Editor area' })
		.getByRole('link', { name: 'Articles' })
		.click()
	await page.getByRole('alertdialog').getByRole('button', { name: 'Leave without saving' }).click()
	await expect(page).toHaveURL(/\/admin\/articles$/)
	await expect(page.getByRole('table')).toContainText('Kelp forests')
	await expect(page.getByRole('table')).not.toContainText('revised')
})

test('saving over someone else’s newer edit is refused, and the text typed is kept', async ({
	page,
	browser,
}) => {
	await signIn(page)
	const url = await newDraft(page, 'Mangroves')
	await page.getByRole('button', { name: 'Publish now' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()

	const other = await browser.newPage({ baseURL: server().url, storageState: session() })
	await signIn(other, new URL(url).pathname)
	await page.reload()
	await waitForHydration(page)

	await other.getByLabel('Title', { exact: true }).fill('Mangroves: their version')
	await other.getByRole('button', { name: 'Update the published article' }).click()
	await expect(other.getByRole('status').filter({ hasText: 'Article updated.' })).toBeVisible()
	await other.close()

	await page.getByLabel('Title', { exact: true }).fill('Mangroves: my version')
	await page.getByRole('button', { name: 'Update the published article' }).click()
	const alert = page.getByRole('alert').filter({ hasText: 'Someone else saved this article' })
	await expect(alert).toContainText('Your changes are not saved')
	await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Mangroves: my version')
	await page.goto('/articles/mangroves')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mangroves: their version')

	// Choosing to replace theirs, knowingly, works.
	await page.goto(url)
	await waitForHydration(page)
	await page.getByLabel('Title', { exact: true }).fill('Mangroves: my version')
	await page.getByRole('button', { name: 'Update the published article' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Article updated.' })).toBeVisible()
})

test('a scheduled draft is published by the server at its time and reaches readers', async ({
	page,
	browser,
}) => {
	const reader = await readerWatching(browser)
	await signIn(page)
	await newDraft(page, 'Rewilding rivers')
	const at = await page.evaluate(() => {
		const date = new Date(Date.now() + 4_000)
		const pad = (n: number) => String(n).padStart(2, '0')
		return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
	})
	await page.getByLabel('Publish at').fill(at)
	await page.getByRole('button', { name: 'Schedule' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Scheduled.' })).toBeVisible()
	await expect(page.getByText(/^Scheduled for/).first()).toBeVisible()
	await expect(reader.locator('article').first()).toContainText('Rewilding rivers', {
		timeout: 15_000,
	})
	await reader.close()
	await page.goto('/admin/articles?status=published')
	await expect(page.getByRole('table')).toContainText('Rewilding rivers')

	// A time in the past is refused with a reason.
	await newDraft(page, 'Too late')
	await page.getByLabel('Publish at').fill('2020-01-01T09:00')
	await page.getByRole('button', { name: 'Schedule' }).click()
	await expect(
		page
			.locator('.field-error')
			.filter({ hasText: 'Choose a time in the future, or publish now.' }),
	).toBeVisible()
})

test('a time is scheduled in the editor’s own time zone, summer time included', async ({
	browser,
}) => {
	// New York: 5 hours behind UTC in January, 4 in July. The page is used, typed in and saved
	// again (each render of the form) before the time is sent.
	const context = await browser.newContext({
		baseURL: server().url,
		storageState: session(),
		timezoneId: 'America/New_York',
	})
	const page = await context.newPage()
	await signIn(page)
	const url = await newDraft(page, 'Salt marsh census')
	const id = Number(url.replace(/.*\//, ''))
	const stored = () =>
		server().withStorage(async (storage) => (await storage.articles.findById(id))?.publishAt)
	for (const [typed, utc] of [
		['2031-01-15T09:00', '2031-01-15T14:00:00.000Z'],
		['2031-07-15T09:00', '2031-07-15T13:00:00.000Z'],
	] as const) {
		await page.getByLabel('Summary').fill(`Counted on ${typed}.`)
		await page.getByLabel('Publish at').fill(typed)
		await page.getByRole('button', { name: /^(Schedule|Change the time)$/ }).click()
		// Polled: the first time's "Scheduled." is still on the page when the second is sent.
		await expect.poll(stored).toBe(utc)
		await expect(page.getByRole('status').filter({ hasText: 'Scheduled.' })).toBeVisible()
		// The stored time comes back in the same zone, as typed.
		await expect(page.getByLabel('Publish at')).toHaveValue(typed)
	}
	await context.close()
})

test('deleting asks for confirmation, then removes the article from readers’ lists', async ({
	page,
	browser,
}) => {
	await signIn(page)
	await newDraft(page, 'Seagrass meadows')
	await page.getByRole('button', { name: 'Publish now' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()
	const reader = await readerWatching(browser)
	await expect(reader.locator('article').first()).toContainText('Seagrass meadows')

	await page.getByText('Delete this article…').click()
	await page.getByRole('button', { name: 'Delete for good' }).click()
	// The address changes a moment before the list replaces the editor, whose own two status
	// lines would then match too (seen on a busy machine).
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Articles')
	await expect(page.getByRole('status')).toHaveText('The article was deleted.')
	// Said on arrival only: the address loses its ?deleted=1, so a reload does not say it again.
	await expect(page).toHaveURL(/\/admin\/articles$/)
	await page.reload()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Articles')
	await expect(page.getByText('The article was deleted.')).toHaveCount(0)
	// Nor once the reader moves on within the list (a filter).
	const reads: string[] = []
	page.on('request', (request) => {
		if (new URL(request.url()).pathname.endsWith('.data')) reads.push(request.url())
	})
	await page.goto('/admin/articles?deleted=1')
	await waitForHydration(page)
	await expect(page.getByRole('status')).toHaveText('The article was deleted.')
	await expect(page).toHaveURL(/\/admin\/articles$/)
	await page
		.getByRole('navigation', { name: 'Filter by status' })
		.getByRole('link', { name: 'Published' })
		.click()
	await expect(page).toHaveURL(/\/admin\/articles\?status=published$/)
	await expect(page.getByText('The article was deleted.')).toHaveCount(0)
	// The notice leaving the address read nothing again: the filter's is the only read.
	expect(reads.length).toBeGreaterThan(0)
	expect(reads.filter((url) => !url.includes('status=published'))).toEqual([])
	await expect(reader.getByText('Seagrass meadows')).toHaveCount(0, { timeout: 5_000 })
	await reader.close()

	await page
		.getByLabel('Search titles, summaries, tags, authors and text')
		.fill('"Seagrass meadows"')
	await page.getByRole('button', { name: 'Search' }).click()
	await expect(page.getByText('No article matches.')).toBeVisible()
})

test(
	'the article list and the editor fit a 320 px screen and work from the keyboard',
	interfaceOnly,
	async ({ page }) => {
		await page.setViewportSize({ width: 320, height: 720 })
		for (const path of ['/admin/articles', '/admin/articles/new']) {
			await page.goto(path)
			await waitForHydration(page)
			const width = await page.evaluate(() => document.documentElement.scrollWidth)
			expect(width, `document width of ${path}`).toBeLessThanOrEqual(320)
		}
		// The bar that saves keeps its buttons on one row: it covers little of a small screen.
		const buttons = page.locator('.editor-actions button')
		const [save, publish] = [await buttons.nth(0).boundingBox(), await buttons.nth(1).boundingBox()]
		expect(save?.y).toBe(publish?.y)
		expect((await page.locator('.editor-bar').boundingBox())?.height).toBeLessThanOrEqual(100)
		// From the title to the body by keyboard alone, each field showing where focus is.
		await page.getByLabel('Title', { exact: true }).focus()
		await page.keyboard.type('Typed by keyboard')
		for (let step = 0; step < 12; step++) {
			if (await page.getByLabel('Text (Markdown)').evaluate((el) => el === document.activeElement))
				break
			await page.keyboard.press('Tab')
			const outline = await page.evaluate(() => {
				const style = getComputedStyle(document.activeElement as Element)
				return style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2
			})
			expect(outline, 'a visible focus outline').toBe(true)
		}
		await expect(page.getByLabel('Text (Markdown)')).toBeFocused()
	},
)

test(
	'the editor gives the text room beside its settings and keeps its buttons in view as it scrolls',
	interfaceOnly,
	async ({ page }) => {
		for (const [width, height, least] of [
			[1920, 1000, 640],
			[1280, 800, 640],
			[390, 844, 340],
		] as const) {
			await page.setViewportSize({ width, height })
			await page.goto('/admin/articles/new')
			await waitForHydration(page)
			const text = page.getByLabel('Text (Markdown)')
			const box = await text.boundingBox()
			expect(box?.width, `text width at ${width} px`).toBeGreaterThanOrEqual(least)
			if (width >= 1280) {
				// The settings beside the text, not below it.
				const settings = await page.getByRole('region', { name: 'Settings' }).boundingBox()
				expect(settings?.x ?? 0, `settings beside the text at ${width} px`).toBeGreaterThan(
					(box?.x ?? 0) + (box?.width ?? 0),
				)
			}
			const publish = page.getByRole('button', { name: 'Publish now' })
			const scrollable = await page.evaluate(
				() => document.documentElement.scrollHeight - window.innerHeight,
			)
			expect(scrollable, `the editor is taller than the window at ${width} px`).toBeGreaterThan(0)
			for (const at of [0, 0.5, 1]) {
				await page.evaluate((y) => window.scrollTo(0, y), Math.round(scrollable * at))
				await expect(
					publish,
					`Publish at ${at * 100} % of the way down, ${width} px`,
				).toBeInViewport({
					ratio: 1,
				})
				await expect(page.getByRole('button', { name: 'Save draft' })).toBeInViewport({ ratio: 1 })
			}
			// Typing scrolls nothing under the bar: the focused field stays above it.
			await page.getByLabel('Cover image description').focus()
			const field = await page.getByLabel('Cover image description').boundingBox()
			const bar = await publish.boundingBox()
			expect((field?.y ?? 0) + (field?.height ?? 0)).toBeLessThanOrEqual(bar?.y ?? 0)
		}
	},
)

test('status badges sit in their own rows of the article list', interfaceOnly, async ({ page }) => {
	for (const width of [1280, 390]) {
		await page.setViewportSize({ width, height: 900 })
		await page.goto('/admin/articles')
		await waitForHydration(page)
		const rows = page.locator('.article-table tbody tr')
		expect(await rows.count()).toBeGreaterThan(0)
		for (const row of await rows.all()) {
			const rowBox = await row.boundingBox()
			const badge = await row.locator('.badge').first().boundingBox()
			expect(badge, 'a badge in the row').not.toBeNull()
			expect(badge?.y ?? 0).toBeGreaterThanOrEqual(rowBox?.y ?? 0)
			expect((badge?.y ?? 0) + (badge?.height ?? 0)).toBeLessThanOrEqual(
				(rowBox?.y ?? 0) + (rowBox?.height ?? 0),
			)
		}
	}
})

test.describe('a refused save', interfaceOnly, () => {
	// The cover's address is on a host that does not exist: its preview fails to load.
	test.use({ expectedConsoleError: /status of 400|ERR_NAME_NOT_RESOLVED/ })

	test('a refused publish says what to change in a summary that takes focus, each field named as labelled and linked', async ({
		page,
	}) => {
		await signIn(page, '/admin/articles/new')
		await page.getByLabel('Title', { exact: true }).fill('A cover without words')
		await page.getByLabel('Text (Markdown)').fill('The text is here.')
		await page
			.getByLabel('Cover image', { exact: true })
			.fill('https://images.example.org/heron.jpg')
		await page.getByRole('button', { name: 'Publish now' }).click()
		const summary = page.getByRole('alert').filter({ hasText: 'The article was not published.' })
		await expect(summary).toBeFocused()
		const link = summary.getByRole('link', { name: /^Cover image description: / })
		await expect(link).toHaveText(
			'Cover image description: Describe the cover image: what it shows, for people who cannot see it.',
		)
		await expect(page.getByText('coverAlt')).toHaveCount(0)
		// By keyboard from the summary to the field, and the field says the same.
		await page.keyboard.press('Tab')
		await expect(link).toBeFocused()
		await page.keyboard.press('Enter')
		await expect(page.getByLabel('Cover image description')).toBeFocused()
		await expect(page.getByLabel('Cover image description')).toHaveAttribute('aria-invalid', 'true')
		await page.getByLabel('Cover image description').fill('A grey heron in the shallows')
		await page.getByRole('button', { name: 'Publish now' }).click()
		// On the article's own page, whether Publish made it or an autosave just before did.
		await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()
		await expect(page).toHaveURL(/\/admin\/articles\/\d+(\?saved=publish)?$/)
		await expect(page.getByRole('alert').filter({ hasText: 'was not published' })).toHaveCount(0)
	})

	test('a refused Update says readers still see the article as it was; once mended, updated', async ({
		page,
	}) => {
		await signIn(page, '/admin/articles/new')
		await page.getByLabel('Title', { exact: true }).fill('Raised bogs')
		await page.getByLabel('Text (Markdown)').fill('Sphagnum moss builds them.')
		await page.getByRole('button', { name: 'Publish now' }).click()
		await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible()
		const text = page.getByLabel('Text (Markdown)')
		await text.fill('![](https://images.example.org/bog.jpg)\n\nSphagnum moss builds them.')
		await page.getByRole('button', { name: 'Update the published article' }).click()
		const refused = page.getByRole('alert').filter({
			hasText: 'The changes were not published: readers still see the article as it was.',
		})
		await expect(refused).toBeFocused()
		await text.fill('![A raised bog in June](https://images.example.org/bog.jpg)\n\nSphagnum.')
		await page.getByRole('button', { name: 'Update the published article' }).click()
		await expect(page.getByRole('status').filter({ hasText: 'Article updated.' })).toBeVisible()
		await expect(page.getByRole('alert').filter({ hasText: 'not published' })).toHaveCount(0)
	})

	test('what a refused publish sent is kept: saved as a draft, and leaving first asks', async ({
		page,
	}) => {
		await signIn(page, '/admin/articles/new')
		await page.getByLabel('Title', { exact: true }).fill('Blanket bogs of the north')
		// An image without a description: a draft may have one, a published article may not.
		await page
			.getByLabel('Text (Markdown)')
			.fill('![](https://images.example.org/bog.jpg)\n\nPeat a metre deep.')
		await page.getByRole('button', { name: 'Publish now' }).click()
		const refused = page.getByRole('alert').filter({ hasText: 'The article was not published.' })
		await expect(refused).toBeFocused()
		// The refusal saved nothing: a draft's autosave then takes what it sent.
		await expect(page.getByRole('status').filter({ hasText: 'Draft saved' })).toBeVisible()
		await expect(page).toHaveURL(/\/admin\/articles\/\d+$/)
		// The draft opened again: an edit, refused again, asks before leaving, and is then
		// autosaved too.
		await page.goto(page.url())
		await waitForHydration(page)
		await page.getByLabel('Title', { exact: true }).fill('Blanket bogs of the far north')
		const refusedAgain = page.waitForResponse(
			(response) => response.request().method() === 'POST' && response.status() === 400,
		)
		await page.getByRole('button', { name: 'Publish now' }).click()
		await refusedAgain
		await expect(page.getByRole('button', { name: 'Publish now' })).toBeEnabled()
		const saved = page.waitForResponse(
			(response) =>
				response.request().method() === 'POST' &&
				(response.request().postData() ?? '').includes('autosave'),
		)
		await page.getByRole('link', { name: 'Tags', exact: true }).click()
		const leave = page.getByRole('alertdialog', { name: /unsaved changes/ })
		await expect(leave).toBeVisible()
		await leave.getByRole('button', { name: 'Stay and keep editing' }).click()
		expect((await saved).status()).toBe(200)
		await page.goto('/admin/articles')
		await expect(page.getByRole('link', { name: 'Blanket bogs of the far north' })).toBeVisible()
	})
})

test(
	'on a phone the article list is a list, each value after its column’s name, not a table to scroll sideways',
	interfaceOnly,
	async ({ page }) => {
		await page.setViewportSize({ width: 390, height: 844 })
		await page.goto('/admin/articles')
		await waitForHydration(page)
		const table = page.locator('.article-table')
		const overflow = await table.evaluate((el) => el.scrollWidth - el.clientWidth)
		expect(overflow, 'sideways scrolling in the list').toBeLessThanOrEqual(0)
		const first = page.locator('.article-table tbody tr').first()
		const label = await first
			.locator('td[data-label="Status"]')
			.evaluate((el) => getComputedStyle(el, '::before').content)
		expect(label).toBe('"Status: "')
		// One row under the other, each the list's whole width.
		const [a, b] = await page
			.locator('.article-table tbody tr')
			.evaluateAll((rows) => rows.slice(0, 2).map((row) => row.getBoundingClientRect().toJSON()))
		expect(b.top).toBeGreaterThanOrEqual(a.bottom - 1)
		// The column names are still there for screen readers.
		await expect(page.getByRole('columnheader', { name: 'Status' })).toHaveCount(1)
	},
)

test(
	'Markdown by toolbar and by keyboard: bold, italic, link, heading, list and quote, undone with Ctrl+Z',
	interfaceOnly,
	async ({ page }) => {
		await signIn(page, '/admin/articles/new')
		const text = page.getByLabel('Text (Markdown)')
		const toolbar = page.getByRole('toolbar', { name: 'Formatting' })
		await expect(toolbar).toBeVisible()
		const select = (from: number, to: number) =>
			text.evaluate(
				(el: HTMLTextAreaElement, range) => el.setSelectionRange(range.from, range.to),
				{
					from,
					to,
				},
			)

		await text.fill('Wetlands hold water')
		// The toolbar: the selected word in bold.
		await select(0, 8)
		await toolbar.getByRole('button', { name: 'Bold' }).click()
		await expect(text).toHaveValue('**Wetlands** hold water')
		// The keyboard: Ctrl+I on the next word, Ctrl+K on the last.
		await select(13, 17)
		await text.press('Control+i')
		await expect(text).toHaveValue('**Wetlands** _hold_ water')
		await select(20, 25)
		await text.press('Control+k')
		await expect(text).toHaveValue('**Wetlands** _hold_ [water](url)')
		// Undone like typing, by the browser's own Ctrl+Z.
		await text.press('Control+z')
		await expect(text).toHaveValue('**Wetlands** _hold_ water')
		// The link's address is selected, ready to be typed over.
		await select(20, 25)
		await text.press('Control+k')
		await page.keyboard.type('https://example.org/')
		await expect(text).toHaveValue('**Wetlands** _hold_ [water](https://example.org/)')

		// Line styles on a line of their own.
		await text.fill('Peat\nReeds\nA quote')
		await select(0, 4)
		await toolbar.getByRole('button', { name: 'Heading' }).click()
		await expect(text).toHaveValue('## Peat\nReeds\nA quote')
		await select(8, 13)
		await toolbar.getByRole('button', { name: 'List', exact: true }).click()
		// A list stands apart from the lines around it, or Markdown would not read it as one.
		await expect(text).toHaveValue('## Peat\n\n- Reeds\n\nA quote')
		await select(18, 25)
		await toolbar.getByRole('button', { name: 'Quote' }).click()
		await expect(text).toHaveValue('## Peat\n\n- Reeds\n\n> A quote')
		// Enter goes on with the list or the quote; on an empty item it ends it.
		await text.press('End')
		await text.press('Enter')
		await page.keyboard.type('that ducks love')
		await expect(text).toHaveValue('## Peat\n\n- Reeds\n\n> A quote\n> that ducks love')
		await text.fill('1. First')
		await text.press('End')
		await text.press('Enter')
		await page.keyboard.type('Second')
		await text.press('Enter')
		await expect(text).toHaveValue('1. First\n2. Second\n3. ')
		await text.press('Enter')
		await expect(text).toHaveValue('1. First\n2. Second\n')
		await text.press('Control+z')
		await expect(text).toHaveValue('1. First\n2. Second\n3. ')
		await text.fill('## Peat\n\n- Reeds\n\n> A quote')
		// What the buttons wrote is the text the preview and the autosave see.
		const heading = page.locator('.editor-preview .prose h2', { hasText: 'Peat' })
		await expect(heading).toBeVisible()
		await expect(page.locator('.editor-preview blockquote')).toHaveText('A quote')
		// The text's heading looks as it will on the page, not like the panel's small grey title.
		const looks = (element: HTMLElement) => {
			const style = getComputedStyle(element)
			return { size: Number.parseFloat(style.fontSize), colour: style.color }
		}
		const [title, written] = [
			await page.locator('#preview-heading').evaluate(looks),
			await heading.evaluate(looks),
		]
		expect(written.size).toBeGreaterThan(title.size * 1.2)
		expect(written.colour).not.toBe(title.colour)
		// The toolbar is one stop in the Tab order; the arrow keys move along it.
		await toolbar.getByRole('button', { name: 'Bold' }).focus()
		await page.keyboard.press('ArrowRight')
		await expect(toolbar.getByRole('button', { name: 'Italic' })).toBeFocused()
	},
)
