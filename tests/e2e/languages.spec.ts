// A site in Spanish with an Arabic translation of an article (decision 033): the admin sets the
// site's languages in Spanish-speaking staff pages, readers get each article in its language and
// direction with its interface, the translations link to each other and to search engines, and
// a reader chooses another interface language with the switcher, with or without JavaScript.
import type { Browser, Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe-check.ts'
import { expect, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { publishArticles } from './server.ts'
import { createAccount, signInWithPassword } from './signed-in.ts'

const server = serveCanopy()

const spanish = {
	title: 'Las turberas guardan el carbono del mundo',
	slug: 'las-turberas-guardan-el-carbono',
	summary: 'Cubren el 3 % de la tierra y guardan más carbono que todos los bosques.',
	// 1,090 words: 5 minutes at Spanish's 218 a minute.
	body: 'turba '.repeat(1090),
	tags: ['turberas'],
}
const arabic = {
	title: 'الأراضي الخثية تخزن كربون العالم',
	summary: 'تغطي ٣٪ من اليابسة وتخزن كربونًا أكثر من كل الغابات.',
	// 1,380 words: 10 minutes at Arabic's 138 a minute.
	body: 'خث '.repeat(1380),
	// The Spanish one's tag too: reading on keeps to each article's own language.
	tags: ['turberas'],
	language: 'ar',
}
// Made from the title: Arabic keeps its own letters in the address.
const arabicSlug = 'الأراضي-الخثية-تخزن-كربون-العالم'

async function reader(browser: Browser, locale: string): Promise<Page> {
	const context = await browser.newContext({ baseURL: server().url, locale })
	return context.newPage()
}

test.describe.configure({ mode: 'serial' })

test('an admin makes the site Spanish, offering Arabic and French too; the staff area speaks Spanish', async ({
	page,
}) => {
	const password = await createAccount(server(), {
		email: 'lucia@example.org',
		role: 'admin',
		name: 'Lucía Admin',
	})
	await signInWithPassword(page, 'lucia@example.org', password, '/admin/settings')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Site settings')

	await page.getByLabel('The site’s language').selectOption('es')
	// English was the site's language, so it is offered: no longer.
	await page.getByLabel('English', { exact: true }).uncheck()
	await page.getByLabel('العربية').check()
	await page.getByLabel('Français').check()
	await page.getByLabel('Time zone').fill('Europe/Madrid')
	await page.getByRole('button', { name: 'Save settings' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible()

	// The browser asks for English, which the site no longer offers: the staff area is Spanish.
	await page.goto('/admin/settings')
	await expect(page.locator('html')).toHaveAttribute('lang', 'es')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ajustes del sitio')
	await expect(page.getByLabel('El idioma del sitio')).toHaveValue('es')
	await expect(page.getByLabel('Zona horaria')).toHaveValue('Europe/Madrid')
	await page.goto('/admin/articles')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Artículos')
	await expectNoAxeViolations(page, 'the staff articles list in Spanish')

	// The editor names the languages and the original a translation belongs to.
	await page.goto('/admin/articles/new')
	await waitForHydration(page)
	await expect(page.getByLabel('Escrito en')).toHaveValue('')
	await expect(page.getByLabel('Escrito en').locator('option').first()).toHaveText(
		'La del sitio (español)',
	)
	await expect(page.getByLabel('Traducción de')).toBeVisible()
})

test('an editor chooses English for the editor area alone, and going to the site and back keeps each in its own', async ({
	browser,
}) => {
	const password = await createAccount(server(), {
		email: 'tom@example.org',
		role: 'editor',
		name: 'Tom Editor',
	})
	// The browser asks for English, which the site does not offer its readers.
	const page = await reader(browser, 'en-GB')
	await signInWithPassword(page, 'tom@example.org', password, '/admin/account')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tu cuenta')

	await page.getByLabel('Idioma', { exact: true }).selectOption('en')
	await page.getByRole('button', { name: 'Guardar idioma' }).click()
	// The page answers in the language chosen, its messages loaded in the browser.
	await expect(page.getByRole('status')).toHaveText(
		'Saved. The editor area speaks this language wherever you sign in.',
	)
	await expect(page.locator('html')).toHaveAttribute('lang', 'en')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account')
	await expect(page.getByLabel('Language', { exact: true })).toHaveValue('en')

	// To the site in the browser (no page load: the mark survives): the reader's pages stay in the
	// site's Spanish.
	await page.evaluate(() => {
		;(window as { stayed?: boolean }).stayed = true
	})
	const stayed = () => page.evaluate(() => (window as { stayed?: boolean }).stayed === true)
	await page.locator('a.staff-site').click()
	await expect(page).toHaveURL(/\/home$/)
	await expect(page.locator('html')).toHaveAttribute('lang', 'es')
	await expect(page.getByRole('heading', { level: 2, name: 'Últimos artículos' })).toBeVisible()
	expect(await stayed()).toBe(true)
	// And back: the editor area in English again, without a reload.
	await page.goBack()
	await expect(page).toHaveURL(/\/admin\/account$/)
	await expect(page.locator('html')).toHaveAttribute('lang', 'en')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account')
	await expect(page.getByRole('navigation', { name: 'Editor area' })).toContainText('Articles')
	expect(await stayed()).toBe(true)
	// A reload says the same.
	await page.reload()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account')
	await page.context().close()
})

test('readers get each translation in its language and direction, linked to the other', async ({
	browser,
}) => {
	await publishArticles(server(), [spanish])
	await publishArticles(server(), [{ ...arabic, slug: '', translationOf: spanish.slug }])

	const page = await reader(browser, 'es-ES')
	// Every message drawn in the browser is in a catalogue it loaded (Lingui says so otherwise).
	const uncompiled: string[] = []
	page.on('console', (message) => {
		if (message.text().includes('Uncompiled message')) uncompiled.push(message.text())
	})
	await page.goto('/articles')
	await expect(page.locator('html')).toHaveAttribute('lang', 'es')
	await expect(page.locator('html')).toHaveAttribute('dir', 'ltr')
	const list = page.getByTestId('article-list')
	await expect(list.getByRole('link', { name: spanish.title })).toBeVisible()
	// Lists keep to the reader's language, with the way to every language.
	await expect(list.getByRole('link', { name: arabic.title })).toHaveCount(0)
	await page.getByRole('link', { name: 'Ver todos los idiomas' }).click()
	await expect(list.getByRole('link', { name: arabic.title })).toBeVisible()
	await expect(list.getByRole('heading', { name: arabic.title })).toHaveAttribute('dir', 'rtl')

	await page.goto(`/articles/${spanish.slug}`)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(spanish.title)
	await expect(page.locator('.article-meta')).toContainText('5 min de lectura')
	// Dates in Spanish.
	await expect(page.locator('.article-meta time')).toHaveText(/^\d{1,2} de [a-z]+ de \d{4}$/)
	// Reading on (newer, older, more on its tag) keeps to the article's language.
	await expect(page.locator('main').getByText(arabic.title)).toHaveCount(0)
	const alsoIn = page.getByRole('navigation', { name: 'Traducciones' })
	await expect(alsoIn).toContainText('También en:')
	const toArabic = alsoIn.getByRole('link', { name: 'العربية' })
	await expect(toArabic).toHaveAttribute('hreflang', 'ar')
	// Both languages are named to search engines, each from the other's page too.
	const alternates = page.locator('link[rel="alternate"][hreflang]')
	await expect(alternates).toHaveCount(2)
	await expect(page.locator('link[rel="alternate"][hreflang="ar"]')).toHaveAttribute(
		'href',
		new RegExp(`/articles/${encodeURI(arabicSlug)}$`),
	)

	await toArabic.click()
	await expect(page).toHaveURL(new RegExp(`/articles/${encodeURI(arabicSlug)}$`))
	await expect(page.locator('html')).toHaveAttribute('lang', 'ar')
	await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(arabic.title)
	// The interface follows the article into Arabic, plurals included (10 is a "few").
	await expect(page.getByRole('link', { name: 'انتقل إلى المحتوى' })).toBeAttached()
	await expect(page.locator('.breadcrumb')).toHaveText('المقالات')
	// CLDR writes Arabic (ar) with Western digits.
	await expect(page.locator('.article-meta')).toContainText('قراءة في 10 دقائق')
	await expect(
		page.getByRole('navigation', { name: 'الترجمات' }).getByRole('link', { name: 'español' }),
	).toHaveAttribute('href', `/articles/${spanish.slug}`)
	// The header mirrors: the title starts on the right.
	const header = await page.locator('a.site-title').boundingBox()
	const viewport = page.viewportSize()
	expect(header && viewport && header.x > viewport.width / 2).toBe(true)
	for (const colorScheme of ['light', 'dark'] as const) {
		await page.emulateMedia({ colorScheme })
		await expectNoAxeViolations(page, `the Arabic article, ${colorScheme}`)
	}

	// The sitemap lists both, each with the other as its alternate.
	const sitemap = await (await page.request.get('/sitemap.xml')).text()
	const arabicUrl = `${server().url}/articles/${encodeURI(arabicSlug)}`
	expect(sitemap).toContain(`<xhtml:link rel="alternate" hreflang="ar" href="${arabicUrl}"/>`)
	expect(sitemap).toContain(
		`<xhtml:link rel="alternate" hreflang="es" href="${server().url}/articles/${spanish.slug}"/>`,
	)
	// A feed per language.
	const feed = await (await page.request.get('/feed.xml?lang=ar')).text()
	expect(feed).toContain('<language>ar</language>')
	expect(feed).toContain(arabic.title)
	expect(feed).not.toContain(spanish.title)
	// Including the Arabic article's page, drawn in Arabic for a Spanish reader (its title and
	// description are in the reader's Spanish, whose messages the page now loads too).
	expect(uncompiled).toEqual([])
	await page.context().close()
})

test('moving between pages in the browser, each is in the language a reload of it gives', async ({
	browser,
}) => {
	const page = await reader(browser, 'ar-EG')
	await page.goto('/articles?lang=all')
	await waitForHydration(page)
	await expect(page.locator('html')).toHaveAttribute('lang', 'ar')
	// To the Spanish article: the interface follows it into Spanish, as its own address does.
	await page.getByTestId('article-list').getByRole('link', { name: spanish.title }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(spanish.title)
	const drawn = async () => ({
		lang: await page.locator('html').getAttribute('lang'),
		dir: await page.locator('html').getAttribute('dir'),
		breadcrumb: await page.locator('.breadcrumb').textContent(),
		skipLink: await page.locator('a.skip-link').textContent(),
	})
	const followed = await drawn()
	expect(followed).toMatchObject({ lang: 'es', dir: 'ltr', breadcrumb: 'Artículos' })
	await page.reload()
	await waitForHydration(page)
	expect(await drawn()).toEqual(followed)
	// Home again: the reader's Arabic, its words and its direction, not English right to left.
	await page.locator('a.site-title').click()
	await expect(page).toHaveURL(/\/home$/)
	await expect(page.locator('html')).toHaveAttribute('lang', 'ar')
	await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
	await expect(page.getByRole('heading', { level: 2, name: 'أحدث المقالات' })).toBeVisible()
	await page.context().close()
})

for (const javaScriptEnabled of [true, false]) {
	test(`a reader switches the interface to French ${javaScriptEnabled ? 'with' : 'without'} JavaScript, and it stays so`, async ({
		browser,
	}) => {
		const context = await browser.newContext({
			baseURL: server().url,
			locale: 'ar-EG',
			javaScriptEnabled,
		})
		const page = await context.newPage()
		await page.goto('/contact')
		await expect(page.locator('html')).toHaveAttribute('lang', 'ar')
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		// The site's own English address keeps its direction on the Arabic page ("1 Greenway").
		await expect(page.locator('address.address')).toHaveText(/^Preserve the Planet/)
		await expect(page.locator('address.address:dir(ltr)')).toHaveCount(1)
		if (javaScriptEnabled) await waitForHydration(page)
		const switcher = page.locator('form.language-switcher')
		await switcher.getByLabel('اللغة').selectOption('fr')
		await switcher.getByRole('button', { name: 'تغيير اللغة' }).click()
		await expect(page).toHaveURL(/\/contact$/)
		await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
		await expect(page.locator('html')).toHaveAttribute('dir', 'ltr')
		await expect(page.getByRole('link', { name: 'Aller au contenu' })).toBeAttached()
		await page.goto('/articles')
		await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Articles')
		await context.close()
	})
}

test('a reader who chooses a language on an article gets the page in it, the article in its own', async ({
	browser,
}) => {
	// A Spanish browser on the Arabic article: the interface follows the article into Arabic.
	const page = await reader(browser, 'es-ES')
	await page.goto(`/articles/${encodeURI(arabicSlug)}`)
	await expect(page.locator('html')).toHaveAttribute('lang', 'ar')
	await waitForHydration(page)
	// Chosen with the switcher, Spanish is kept, on this article and after.
	const switcher = page.locator('form.language-switcher')
	await switcher.getByLabel('اللغة').selectOption('es')
	await switcher.getByRole('button', { name: 'تغيير اللغة' }).click()
	await expect(page).toHaveURL(new RegExp(`/articles/${encodeURI(arabicSlug)}$`))
	await expect(page.locator('html')).toHaveAttribute('lang', 'es')
	await expect(page.locator('html')).toHaveAttribute('dir', 'ltr')
	await expect(page.getByRole('link', { name: 'Saltar al contenido' })).toBeAttached()
	const article = page.locator('article').filter({ hasText: arabic.title }).first()
	await expect(article).toHaveAttribute('lang', 'ar')
	await expect(article).toHaveAttribute('dir', 'rtl')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(arabic.title)
	await page.context().close()
})
