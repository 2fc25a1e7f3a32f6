// /admin/settings over HTTP: admins only, validated field by field, and what is saved shows on
// the public pages at once, whole-page cache and all.
import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser } from '#app/features/auth/users.server.ts'
import { defaultSiteSettings } from '#app/features/site/site-settings.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { pngImage, svgImage } from '#tests/fixtures/images.ts'

const password = 'estuary salt marsh 12'

describe('site settings', () => {
	let app: TestApp
	let admin: string
	let editor: string

	async function signIn(email: string) {
		const response = await fetch(`${app.url}/admin/sign-in`, {
			method: 'POST',
			redirect: 'manual',
			headers: { Origin: app.url, 'Content-Type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ email, password }),
		})
		return response.headers
			.getSetCookie()
			.map((value) => value.split(';')[0])
			.join('; ')
	}

	beforeAll(async () => {
		app = await startTestApp({ seed: false })
		for (const [email, role] of [
			['ada@example.org', 'admin'],
			['ana@example.org', 'editor'],
		] as const) {
			await createUser(app.auth, app.storage, { email, name: email, role, password })
		}
		admin = await signIn('ada@example.org')
		editor = await signIn('ana@example.org')
	})
	afterAll(async () => {
		await app?.close()
	})

	const good = {
		title: 'Rivers First',
		tagline: 'Reporting on the rivers we share.',
		logoUrl: '',
		contactAddress: 'Rivers First\n2 Quay Street\nPortsmouth',
	}

	/** Posts the settings form; a list is a field given more than once (the languages offered). */
	function save(cookie: string, fields: Record<string, string | string[]>, file?: File) {
		const form = new FormData()
		for (const [key, value] of Object.entries(fields))
			for (const one of [value].flat()) form.append(key, one)
		if (file) form.append('logoUrlFile', file)
		return fetch(`${app.url}/admin/settings`, {
			method: 'POST',
			redirect: 'manual',
			headers: { Origin: app.url, Cookie: cookie },
			body: form,
		})
	}

	const publicPage = async (path: string) => (await fetch(`${app.url}${path}`)).text()

	it('turns an editor away with 403, reading and saving', async () => {
		const page = await fetch(`${app.url}/admin/settings`, { headers: { Cookie: editor } })
		expect(page.status).toBe(403)
		const html = await page.text()
		expect(html).not.toContain('Site settings')
		expect(html).toContain('For admins only')
		const saved = await save(editor, good)
		expect(saved.status).toBe(403)
		expect(await publicPage('/home')).not.toContain('Rivers First')
	})

	it('shows an admin the current settings in a labelled form', async () => {
		const response = await fetch(`${app.url}/admin/settings`, { headers: { Cookie: admin } })
		expect(response.status).toBe(200)
		const html = await response.text()
		expect(html).toContain('<label for="title">Site title</label>')
		expect(html).toContain('value="Preserve the Planet"')
		expect(html).toMatch(/<label for="logoUrl-file">Upload an image<span class="visually-hidden">/)
		expect(html).toContain('accept="image/png,image/jpeg,image/webp,image/avif"')
	})

	it('saves, and the public pages show the new title, tagline and address at once', async () => {
		// Cached before the change: the cache must drop these pages.
		expect(await publicPage('/home')).toContain('Preserve the Planet')
		expect(await publicPage('/home')).toContain('Preserve the Planet')
		expect(await publicPage('/contact')).toContain('1 Greenway')

		const response = await save(admin, good)
		expect(response.status).toBe(200)
		expect(await response.text()).toContain('Settings saved.')

		const home = await publicPage('/home')
		expect(home).toMatch(/<a class="site-title" href="\/home"[^>]*>Rivers First<\/a>/)
		expect(home).toContain('Reporting on the rivers we share.')
		expect(home).not.toContain('Preserve the Planet')
		// An empty logo address is the default logo.
		expect(home).toContain('src="/logo.svg"')
		expect(await publicPage('/contact')).toContain('2 Quay Street')
		// Sent without the contact page's email and introduction (an older form): kept as they were.
		expect(await publicPage('/contact')).toContain('mailto:hello@example.org')
		// The settings page's code and styles stay in the editor area.
		expect(home).not.toMatch(/assets\/(settings|admin-|image-upload)/)
	})

	it('sets the site’s languages and time zone: readers get theirs among those offered', async () => {
		const inSpanish = { ...good, language: 'es', timeZone: 'America/Mexico_City' }
		const refused = await save(admin, { ...inSpanish, languages: ['ar', 'xx-not-offered-here'] })
		// A language Canopy has no catalogue for is refused, next to its field.
		expect(refused.status).toBe(400)
		expect(await refused.text()).toContain('Choose languages from the list.')

		const wrongZone = await save(admin, { ...good, language: 'es', timeZone: 'Mars/Olympus' })
		expect(wrongZone.status).toBe(400)
		expect(await wrongZone.text()).toContain(
			'Choose a time zone from the list, like Europe/Madrid.',
		)

		const saved = await save(admin, { ...inSpanish, languages: ['ar'] })
		expect(saved.status).toBe(200)
		const page = (accept: string) =>
			fetch(`${app.url}/home`, { headers: { 'Accept-Language': accept } }).then((r) => r.text())
		expect(await page('en-GB,en;q=0.9')).toMatch(/<html lang="es" dir="ltr" data-locale="es"[ >]/)
		expect(await page('ar-EG')).toMatch(/<html lang="ar" dir="rtl" data-locale="ar"[ >]/)
		// French is translated but not offered here.
		expect(await page('fr-FR')).toMatch(/<html lang="es"/)
		const spanish = await page('es')
		expect(spanish).toContain('Saltar al contenido')
		// The switcher offers the two, each named in itself.
		expect(spanish).toContain('<option value="ar" lang="ar">العربية</option>')

		// Saving the rest without the language fields keeps them.
		expect((await save(admin, good)).status).toBe(200)
		expect(await page('en')).toMatch(/<html lang="es"/)
		// Back to English only, for the tests after this one.
		const english = await save(admin, { ...good, language: 'en', timeZone: 'UTC' })
		expect(english.status).toBe(200)
		expect(await page('es')).toMatch(/<html lang="en"/)
	})

	it('a reader whose language has nothing yet gets every language’s articles, and is told so', async () => {
		const created = await app.storage.articles.create(
			articleWrite({ slug: 'tidal-flats-return', title: 'Tidal Flats Return' }),
		)
		expect(created.ok).toBe(true)
		// The tagline a new site starts with, as no admin has changed it.
		const saved = await save(admin, {
			...good,
			tagline: defaultSiteSettings.tagline,
			language: 'en',
			timeZone: 'UTC',
			languages: ['fr'],
		})
		expect(saved.status).toBe(200)
		const page = (path: string, accept: string) =>
			fetch(`${app.url}${path}`, { headers: { 'Accept-Language': accept } }).then((r) => r.text())

		// Nothing is in French: a French reader gets the English article, in a French interface,
		// rather than "nothing published yet".
		const french = await page('/articles', 'fr-FR')
		expect(french).toMatch(/<html lang="fr"/)
		expect(french).toContain('Tidal Flats Return')
		expect(french).toContain('Rien en français pour l’instant')
		expect(french).not.toContain('Rien n’a encore été publié')
		const frenchHome = await page('/home', 'fr-FR')
		expect(frenchHome).toContain('Tidal Flats Return')
		// The starting tagline, which no admin has changed, is in French on the page, in its
		// description and in the French feed's; the English home keeps it in English.
		const frenchTagline =
			'Des reportages clairs et vérifiables sur le climat, la nature et les personnes qui œuvrent à les protéger.'
		expect(frenchHome).toContain(`<p class="tagline">${frenchTagline}</p>`)
		expect(frenchHome).toContain(`<meta name="description" content="${frenchTagline}"/>`)
		expect(await page('/feed.xml?lang=fr', 'en')).toContain(frenchTagline)
		expect(await page('/home', 'en')).toContain(
			`<p class="tagline">${defaultSiteSettings.tagline}</p>`,
		)
		// The contact page's starting introduction, which no admin has changed, is in French too.
		expect(await page('/contact', 'fr-FR')).toContain('Nous lisons chaque message.')
		for (const path of ['/tags/test', '/authors/test-author']) {
			const listing = await page(path, 'fr-FR')
			expect(listing, path).toContain('Tidal Flats Return')
			expect(listing, path).toContain('Rien en français pour l’instant')
		}
		// The site's own language still lists its own, with the way to every language.
		const english = await page('/articles', 'en')
		expect(english).toContain('Tidal Flats Return')
		expect(english).toContain('Show every language')

		// An article in a language the site does not offer (Russian) is listed with the site's
		// language, not left out of every reader's list; a French reader still gets French only.
		const russian = await app.storage.articles.create(
			articleWrite({ slug: 'bolota-rossii', title: 'Болота России', language: 'ru' }),
		)
		expect(russian.ok).toBe(true)
		await app.storage.articles.create(
			articleWrite({ slug: 'les-marais', title: 'Les marais reviennent', language: 'fr' }),
		)
		expect(await page('/articles', 'en')).toContain('Болота России')
		expect(await page('/home', 'en')).toContain('Болота России')
		const frenchNow = await page('/articles', 'fr-FR')
		expect(frenchNow).toContain('Les marais reviennent')
		expect(frenchNow).not.toContain('Болота России')
		// Its feeds are the French ones, as the list is: in the head and in the footer's menu.
		expect(frenchNow).toContain(
			'<link rel="alternate" type="application/rss+xml" href="/feed.xml?lang=fr"',
		)
		expect(frenchNow).toContain(
			'<link rel="alternate" type="application/atom+xml" href="/atom.xml?lang=fr"',
		)
		expect(frenchNow).toMatch(/<a href="\/feed\.xml\?lang=fr">[^<]+<\/a>/)
		expect(await page('/articles', 'en')).toContain('href="/feed.xml?lang=en"')
		// The home page says so too, with the way to every language's articles.
		const frenchHomeNow = await page('/home', 'fr-FR')
		expect(frenchHomeNow).toContain('Les marais reviennent')
		expect(frenchHomeNow).not.toContain('Tidal Flats Return')
		expect(frenchHomeNow).toMatch(/<a href="\/articles\?lang=all"[^>]*>[^<]+<\/a>/)
		expect(await page('/home', 'en')).toContain('Show every language')
		// On its page the article says it is Russian, and the interface's words inside it that
		// they are English.
		const article = await page('/articles/bolota-rossii', 'en')
		expect(article).toMatch(/<html lang="en"/)
		expect(article).toMatch(/<article class="page narrow article" lang="ru" dir="ltr">/)
		expect(article).toMatch(/<p class="breadcrumb" lang="en" dir="ltr">/)
		expect(article).toMatch(/<p class="article-meta" lang="en" dir="ltr">/)
		// An English article's page has no such attributes to repeat.
		expect(await page('/articles/tidal-flats-return', 'en')).toMatch(/<p class="article-meta">/)
		// Reading on goes both ways in the list it is found in (the site's language's, which
		// takes in languages the site does not offer): the English article before it leads to it,
		// and it leads back, not only to other Russian articles (there are none).
		expect(article).toMatch(/<a class="read-on-older" href="\/articles\/[a-z0-9-]+"/)
		const before = /<a class="read-on-older" href="(\/articles\/[a-z0-9-]+)"/.exec(article)?.[1]
		expect(await page(before ?? '/none', 'en')).toContain(
			'<a class="read-on-newer" href="/articles/bolota-rossii"',
		)

		// An article in Canadian French is listed for French readers and read in the French
		// interface, as one in French is; the article keeps its own tag.
		await app.storage.articles.create(
			articleWrite({
				slug: 'les-tourbieres',
				title: 'Les tourbières du Québec',
				language: 'fr-CA',
			}),
		)
		expect(await page('/articles', 'fr-FR')).toContain('Les tourbières du Québec')
		const quebec = await page('/articles/les-tourbieres', 'en')
		expect(quebec).toMatch(/<html lang="fr" dir="ltr" data-locale="fr"[ >]/)
		expect(quebec).toMatch(/<article class="page narrow article" lang="fr-CA" dir="ltr">/)
		expect(quebec).toMatch(/<p class="article-meta">/)
		expect(quebec).toContain('Aller au contenu')
		// The French feed and a French article's reading on take it in too.
		expect(await page('/feed.xml?lang=fr', 'en')).toContain('Les tourbières du Québec')
		expect(await page('/articles/les-marais', 'fr-FR')).toContain('Les tourbières du Québec')
		expect(await page('/feed.xml?lang=en', 'en')).not.toContain('Les tourbières du Québec')
		// The feed of every language says each entry's where it is not the feed's own.
		const rss = await page('/feed.xml', 'en')
		expect(rss).toContain('<language>en</language>')
		const item = (title: string) =>
			rss.split('<item>').find((one) => one.includes(title)) ?? 'no such item'
		expect(item('Les tourbières du Québec')).toContain('<dc:language>fr-CA</dc:language>')
		expect(item('Болота России')).toContain('<dc:language>ru</dc:language>')
		expect(item('Tidal Flats Return')).not.toContain('<dc:language>')
		// A title that says "<entry>" (raw in the feed's CDATA) is text, not an entry to mark.
		await app.storage.articles.create(
			articleWrite({ slug: 'what-an-entry-is', title: 'What an <entry> is' }),
		)
		const atom = await page('/atom.xml', 'en')
		expect(atom).toContain('What an <entry> is')
		// As many entries marked as the RSS feed's items in another language (none more).
		const others = (await page('/feed.xml', 'en')).match(/<dc:language>/g)?.length ?? 0
		expect(others).toBeGreaterThanOrEqual(2)
		expect(atom.match(/<entry xml:lang=/g)).toHaveLength(others)
		expect(atom).toContain('<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">')
		const entry = (title: string) => {
			const one = atom.split('</entry>').find((part) => part.includes(title)) ?? 'no such entry'
			return one.slice(one.indexOf('<entry'))
		}
		expect(entry('Les tourbières du Québec')).toMatch(/^<entry xml:lang="fr-CA">/)
		expect(entry('Tidal Flats Return')).toMatch(/^<entry>/)

		// Back to English only, for the tests after this one.
		expect((await save(admin, { ...good, language: 'en', timeZone: 'UTC' })).status).toBe(200)
	})

	it('sets the contact page’s email and introduction; a wrong address is named and nothing saved', async () => {
		const refused = await save(admin, {
			...good,
			contactEmail: 'rivers at example',
			contactIntro: '',
		})
		expect(refused.status).toBe(400)
		expect(await refused.text()).toContain(
			'<p id="contactEmail-error" class="field-error">Enter an email address like hello@your-group.org.</p>',
		)
		expect(await publicPage('/contact')).toContain('mailto:hello@example.org')

		const saved = await save(admin, {
			...good,
			contactEmail: ' write@rivers.example ',
			contactIntro: 'Tell us about your river.',
		})
		expect(saved.status).toBe(200)
		const contact = await publicPage('/contact')
		expect(contact).toContain('<a href="mailto:write@rivers.example">write@rivers.example</a>')
		expect(contact).toContain('Tell us about your river.')
		expect(contact).not.toContain('hello@example.org')
		// An empty introduction: none on the page.
		expect(
			(await save(admin, { ...good, contactEmail: 'write@rivers.example', contactIntro: '' }))
				.status,
		).toBe(200)
		expect(await publicPage('/contact')).not.toContain('class="contact-intro"')
	})

	it('answers bad input with 400 and a message on each field, saving nothing', async () => {
		const response = await save(admin, {
			title: '   ',
			tagline: 'A tagline.',
			logoUrl: 'javascript:alert(1)',
			contactAddress: '',
		})
		expect(response.status).toBe(400)
		const html = await response.text()
		expect(html).toContain('Nothing was saved.')
		expect(html).toMatch(/aria-invalid="true" aria-describedby="title-error"/)
		expect(html).toContain(
			'<p id="title-error" class="field-error">Enter the site&#x27;s title.</p>',
		)
		expect(html).toContain('id="logoUrl-error"')
		expect(html).toContain('starting with https://')
		expect(html).toContain(
			'<p id="contactAddress-error" class="field-error">Enter the postal address',
		)
		expect(await publicPage('/home')).toContain('Rivers First')
	})

	it('answers a form body that cannot be read with 400, keeping the stored values', async () => {
		const response = await fetch(`${app.url}/admin/settings`, {
			method: 'POST',
			headers: {
				Origin: app.url,
				Cookie: admin,
				'Content-Type': 'multipart/form-data; boundary=x',
			},
			body: '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\ncut off',
		})
		expect(response.status).toBe(400)
		const html = await response.text()
		expect(html).toContain('The form arrived incomplete. Please send it again.')
		expect(html).toContain('value="Rivers First"')
	})

	it('takes a logo file sent with the form (no JavaScript) and shows it in the header', async () => {
		const logo = pngImage(25, 25)
		const response = await save(
			admin,
			{ ...good, logoUrl: '/logo.svg' },
			new File([logo], 'logo.png', { type: 'image/png' }),
		)
		expect(response.status).toBe(200)
		const home = await publicPage('/home')
		const src = /<img class="site-logo" src="([^"]+)" alt="" width="25" height="25"/.exec(home)?.[1]
		expect(src).toMatch(/^\/media\/[0-9a-f]{64}\.png$/)
		const served = Buffer.from(await (await fetch(`${app.url}${src}`)).arrayBuffer())
		// The logo as stored: made again from its pixels, at the hash of what is served.
		expect(createHash('sha256').update(served).digest('hex')).toBe(src?.slice(7, 71))
		expect((await sharp(served).metadata()).width).toBe(25)
	})

	it('refuses an SVG logo sent with the form, next to the logo field', async () => {
		const response = await save(
			admin,
			good,
			new File([svgImage()], 'logo.svg', { type: 'image/svg+xml' }),
		)
		expect(response.status).toBe(400)
		const html = await response.text()
		expect(html).toMatch(/<p id="logoUrl-error" class="field-error">SVG images cannot be uploaded/)
		expect(await publicPage('/home')).toMatch(/class="site-logo" src="\/media\//)
	})
})
