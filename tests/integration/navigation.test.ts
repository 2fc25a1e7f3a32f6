// The menus over HTTP: the seed's header (Articles, Contact) by default; an admin adds, moves,
// changes and removes links in the header and the footer, and every public page shows them at
// once; bad addresses are refused in words; editors cannot change them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { makeAccount, postForm, signIn, teamPassword } from '#tests/fixtures/forms.ts'

describe('navigation', () => {
	let app: TestApp
	let admin = ''
	let editor = ''
	const page = async (path: string) => (await fetch(`${app.url}${path}`)).text()
	const menu = (html: string, label: string) => {
		const nav = new RegExp(`<nav aria-label="${label}"[^>]*>(.*?)</nav>`, 's').exec(html)?.[1] ?? ''
		return [...nav.matchAll(/<a[^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map(
			(m) => `${m[2]} ${m[1]}`,
		)
	}
	const step = (fields: Record<string, string>, cookie = admin) =>
		postForm(app, '/admin/navigation', fields, { cookie })

	beforeAll(async () => {
		app = await startTestApp({ seed: false })
		await makeAccount(app, 'ines@example.org', 'admin', 'Inês Duarte')
		await makeAccount(app, 'tomas@example.org', 'editor', 'Tomás Rey')
		;({ cookie: admin } = await signIn(app, 'ines@example.org', teamPassword))
		;({ cookie: editor } = await signIn(app, 'tomas@example.org', teamPassword))
	})
	afterAll(async () => {
		await app?.close()
	})

	it('keeps the seed’s header until an admin changes it, then shows the change everywhere', async () => {
		expect(menu(await page('/home'), 'Main')).toEqual(['Articles /articles', 'Contact /contact'])

		expect(
			(await step({ intent: 'add', menu: 'header', label: 'About us', href: '/about' })).status,
		).toBe(200)
		expect((await step({ intent: 'up', menu: 'header', index: '2' })).status).toBe(200)
		await step({ intent: 'add', menu: 'footer', label: 'Privacy', href: '/privacy' })
		await step({
			intent: 'add',
			menu: 'footer',
			label: 'Donate',
			href: 'https://donate.example.org/',
		})
		await step({ intent: 'remove', menu: 'footer', index: '0' })
		await step({
			intent: 'change',
			menu: 'header',
			index: '0',
			label: 'Stories',
			href: '/articles',
		})

		for (const path of ['/home', '/articles', '/contact']) {
			const html = await page(path)
			expect(menu(html, 'Main')).toEqual([
				'Stories /articles',
				'About us /about',
				'Contact /contact',
			])
			expect(menu(html, 'Footer')).toEqual([
				'Contact /contact',
				'Privacy /privacy',
				'Donate https://donate.example.org/',
			])
		}
		// More links than fit on a phone: the header offers its Menu button.
		expect(await page('/home')).toContain('aria-expanded="false"')
	})

	it('refuses an address it cannot link to, and an editor’s change', async () => {
		const bad = await step({
			intent: 'add',
			menu: 'header',
			label: 'Evil',
			href: 'javascript:alert(1)',
		})
		expect(bad.status).toBe(400)
		const refused = await bad.text()
		expect(refused).toContain('Give an address of this site starting with /')
		// The message is tied to its field, for a screen reader and the field's invalid look.
		const field = /<input[^>]*value="javascript:alert\(1\)"[^>]*>/.exec(refused)?.[0] ?? ''
		expect(field).toContain('aria-invalid="true"')
		expect(field).toContain('aria-describedby="header-href-error"')
		expect(refused).toContain('<p id="header-href-error" class="field-error">Give an address')
		const empty = await step({ intent: 'add', menu: 'footer', label: ' ', href: '/x' })
		expect(empty.status).toBe(400)
		expect(await empty.text()).toContain('Give the link a label')
		const byEditor = await step({ intent: 'reset' }, editor)
		expect(byEditor.status).toBe(403)
		expect(menu(await page('/home'), 'Main')).toContain('About us /about')

		expect((await step({ intent: 'reset' })).status).toBe(200)
		expect(menu(await page('/home'), 'Main')).toEqual(['Articles /articles', 'Contact /contact'])
	})

	it('says beside a link when nothing is published at its address of this site, until there is', async () => {
		for (const [label, href] of [
			['Privacy', '/privacy'],
			['Archive', '/articles'],
			['Nope', '/tags/nope'],
			['Feed', '/feed.xml'],
			['Donate', 'https://example.org/donate'],
		] as const)
			expect((await step({ intent: 'add', menu: 'footer', label, href })).status).toBe(200)
		const editorPage = async () =>
			(await fetch(`${app.url}/admin/navigation`, { headers: { Cookie: admin } })).text()
		const warned = (html: string) =>
			[...html.matchAll(/Nothing is published at (\S+) yet/g)].map((match) => match[1])
		expect(warned(await editorPage())).toEqual(['/privacy', '/tags/nope'])

		const published = await postForm(
			app,
			'/admin/pages/new',
			{ title: 'Privacy', slug: 'privacy', summary: '', body: 'What we keep.', intent: 'publish' },
			{ cookie: admin },
		)
		expect(published.status).toBe(302)
		expect(warned(await editorPage())).toEqual(['/tags/nope'])
		expect((await step({ intent: 'reset' })).status).toBe(200)
	})
})
