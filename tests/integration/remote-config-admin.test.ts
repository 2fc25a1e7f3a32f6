// /admin/config over HTTP, as a browser without JavaScript uses it: an admin publishes a
// parameter from its form, is told field by field what is wrong, cannot publish over a version
// they have not seen, and rolls back by publishing an old version again. Admins only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { getPage, makeAccount, postForm, signIn, teamPassword } from '#tests/fixtures/forms.ts'
import { runCli } from '#tests/fixtures/process.ts'
import { databases } from '#tests/fixtures/storage.ts'

describe.each(databases)('remote configuration in the editor area: $name', ({ create }) => {
	let app: TestApp
	let admin = ''
	let editor = ''

	beforeAll(async () => {
		app = await startTestApp({ seed: false, database: create })
		await makeAccount(app, 'ada@example.org', 'admin', 'Ada Admin')
		await makeAccount(app, 'ana@example.org', 'editor', 'Ana Editor')
		admin = (await signIn(app, 'ada@example.org', teamPassword)).cookie
		editor = (await signIn(app, 'ana@example.org', teamPassword)).cookie
	})
	afterAll(async () => {
		await app?.close()
	})

	/** The form's fields as a browser would post them. */
	function bannerForm(baseVersion: number, fields: Record<string, string> = {}) {
		return {
			baseVersion: String(baseVersion),
			serverDefaultMode: 'server',
			serverDefault: 'Hello',
			intent: 'publish',
			...fields,
		}
	}

	it('sends every configuration page to sign-in without a session', async () => {
		for (const path of [
			'/admin/config',
			'/admin/config/advanced',
			'/admin/config/banner_message',
			'/admin/config/versions',
		]) {
			const response = await getPage(app, path)
			expect(response.status, path).toBe(302)
			expect(response.headers.get('location'), path).toBe(
				`/admin/sign-in?next=${encodeURIComponent(path)}`,
			)
			const posted = await postForm(app, path, bannerForm(0))
			expect(posted.status, `POST ${path}`).toBe(302)
		}
		expect(await app.storage.config.current()).toBeUndefined()
	})

	it('answers an editor who is not an admin 403, and publishes nothing for them', async () => {
		for (const path of [
			'/admin/config',
			'/admin/config/advanced',
			'/admin/config/banner_message',
			'/admin/config/versions',
		]) {
			expect((await getPage(app, path, editor)).status, path).toBe(403)
		}
		const posted = await postForm(app, '/admin/config/banner_message', bannerForm(0), {
			cookie: editor,
		})
		expect(posted.status).toBe(403)
		expect(await app.storage.config.current()).toBeUndefined()
		// Nor is the link in their navigation.
		expect(await (await getPage(app, '/admin', editor)).text()).not.toContain('/admin/config')
	})

	it('publishes a parameter from its form and lists it in words', async () => {
		const overview = await getPage(app, '/admin', admin)
		expect(await overview.text()).toContain('href="/admin/config"')
		const form = await (await getPage(app, '/admin/config/banner_message', admin)).text()
		expect(form).toContain('name="baseVersion" value="0"')

		// Adding a condition posts the form back with an empty row, and publishes nothing.
		const added = await postForm(
			app,
			'/admin/config/banner_message',
			bannerForm(0, { intent: 'add' }),
			{
				cookie: admin,
			},
		)
		expect(added.status).toBe(200)
		expect(await added.text()).toContain('name="conditions.0.percent"')
		expect(await app.storage.config.current()).toBeUndefined()

		const published = await postForm(
			app,
			'/admin/config/banner_message',
			bannerForm(0, {
				'conditions.0.percent': '10',
				'conditions.0.languages': 'FR, pt',
				'conditions.0.from': '2026-05-01T09:00',
				'conditions.0.value': 'Bonjour',
			}),
			{ cookie: admin },
		)
		expect(published.status).toBe(302)
		expect(published.headers.get('location')).toBe('/admin/config/advanced?published=1')
		const version = await app.storage.config.current()
		expect(version).toMatchObject({
			id: 1,
			createdByName: 'Ada Admin',
			summary: "banner_message: server default '' (in-app default) → 'Hello'; 1 condition added",
			restoredFrom: null,
			document: {
				parameters: {
					banner_message: {
						serverDefault: 'Hello',
						conditions: [
							{
								rules: { percent: 10, languages: ['fr', 'pt'], from: '2026-05-01T09:00:00.000Z' },
								value: 'Bonjour',
							},
						],
					},
				},
			},
		})

		const page = await (await getPage(app, '/admin/config/advanced?published=1', admin)).text()
		expect(page).toContain('Version 1 published.')
		expect(page).toContain(
			'10 % of visitors · languages fr, pt · from 2026-05-01 09:00 UTC → &#x27;Bonjour&#x27;',
		)
		expect(page).toContain('Ada Admin')
	})

	it('answers 400 with a message beside the field, keeping what was typed', async () => {
		const before = (await app.storage.config.current())?.id ?? 0
		const cases: [string, Record<string, string>, string, string][] = [
			[
				'home_latest_count',
				{ serverDefaultMode: 'server', serverDefault: '99' },
				'serverDefault-error',
				'Must be 12 or less.',
			],
			[
				'home_latest_count',
				{ serverDefaultMode: 'server', serverDefault: 'lots' },
				'serverDefault-error',
				'Enter a number, such as 3.',
			],
			[
				'banner_message',
				{ 'conditions.0.percent': '0', 'conditions.0.value': 'Hi' },
				'conditions.0.percent-error',
				'Must be more than 0 %.',
			],
			[
				'banner_message',
				{
					'conditions.0.from': '2026-06-01T00:00',
					'conditions.0.until': '2026-05-01T00:00',
					'conditions.0.value': 'Hi',
				},
				'conditions.0.until-error',
				'Must be after the start (&quot;from&quot;).',
			],
		]
		for (const [key, fields, id, message] of cases) {
			const response = await postForm(
				app,
				`/admin/config/${key}`,
				{ baseVersion: String(before), serverDefaultMode: 'app', intent: 'publish', ...fields },
				{ cookie: admin },
			)
			expect(response.status, `${key} ${id}`).toBe(400)
			const html = await response.text()
			expect(html).toContain(`<p id="${id}" class="field-error">${message}</p>`)
			expect(html).toContain('Nothing was published.')
			for (const value of Object.values(fields)) expect(html).toContain(`value="${value}"`)
		}
		expect((await app.storage.config.current())?.id).toBe(before)
	})

	it('answers 409 to a form loaded from a version that is no longer current', async () => {
		const current = (await app.storage.config.current())?.id ?? 0
		const stale = await postForm(
			app,
			'/admin/config/banner_message',
			bannerForm(current - 1, { serverDefault: 'Late news' }),
			{ cookie: admin },
		)
		expect(stale.status).toBe(409)
		const html = await stale.text()
		expect(html).toContain(`someone published version ${current}`)
		expect(html).toContain('href="/admin/config/banner_message"')
		expect(html).toContain('value="Late news"')
		expect((await app.storage.config.current())?.id).toBe(current)
	})

	it('rolls back by publishing a copy of an old version as the next one', async () => {
		let base = (await app.storage.config.current())?.id ?? 0
		const second = await postForm(
			app,
			'/admin/config/banner_message',
			bannerForm(base, { serverDefault: 'Second' }),
			{ cookie: admin },
		)
		expect(second.status).toBe(302)
		base += 1
		const versionsPage = await (await getPage(app, '/admin/config/versions', admin)).text()
		expect(versionsPage).toContain('Roll back to this version')
		expect(versionsPage).toContain(
			'banner_message: server default &#x27;Hello&#x27; → &#x27;Second&#x27;',
		)

		// A rollback on a stale base is refused too.
		const stale = await postForm(
			app,
			'/admin/config/versions',
			{ version: '1', baseVersion: String(base - 1) },
			{ cookie: admin },
		)
		expect(stale.status).toBe(409)

		const rolledBack = await postForm(
			app,
			'/admin/config/versions',
			{ version: '1', baseVersion: String(base) },
			{ cookie: admin },
		)
		expect(rolledBack.status).toBe(302)
		expect(rolledBack.headers.get('location')).toBe(
			`/admin/config/versions?published=${base + 1}&from=1`,
		)
		const restored = await app.storage.config.current()
		const first = await app.storage.config.get(1)
		expect(restored?.id).toBe(base + 1)
		expect(restored?.restoredFrom).toBe(1)
		expect(restored?.document).toEqual(first?.document)
		const after = await (await getPage(app, rolledBack.headers.get('location') ?? '', admin)).text()
		expect(after).toContain(`restored from 1`)
		expect(after).toContain('a copy of version 1')

		const shown = await runCli(['config:show'], app.env)
		expect(shown.code, shown.stderr).toBe(0)
		expect(shown.stdout).toContain(`Version ${base + 1}, published `)
		expect(shown.stdout).toContain('by Ada Admin, restored from 1: Rolled back to version 1')
		expect(JSON.parse(shown.stdout.slice(shown.stdout.indexOf('\n{')))).toEqual(first?.document)
	})

	it('lists versions newest first, twenty to a page', async () => {
		let base = (await app.storage.config.current())?.id ?? 0
		const document = { parameters: {} }
		while (base < 25) {
			const input = {
				document,
				baseVersion: base,
				createdBy: null,
				createdByName: 'CLI',
				summary: 's',
			}
			await app.storage.config.publish(input, new Date())
			base += 1
		}
		const headings = (html: string) =>
			[...html.matchAll(/<h2 id="version-(\d+)"/g)].map((match) => Number(match[1]))
		const first = await (await getPage(app, '/admin/config/versions', admin)).text()
		expect(headings(first)).toEqual(Array.from({ length: 20 }, (_, i) => 25 - i))
		expect(first).toContain('href="/admin/config/versions?before=6"')
		const second = await (await getPage(app, '/admin/config/versions?before=6', admin)).text()
		expect(headings(second)).toEqual([5, 4, 3, 2, 1])
		expect(second).not.toContain('Older versions')
	})

	it('switches the announcement bar in plain words, keeping rules it does not show, and turns it off without losing its text', async () => {
		const base = (await app.storage.config.current())?.id ?? 0
		// A rule set on the parameter's own page, for the count of latest articles.
		await app.storage.config.publish(
			{
				document: {
					parameters: {
						home_latest_count: {
							serverDefault: 3,
							conditions: [{ rules: { devices: ['mobile'] }, value: 2 }],
						},
					},
				},
				baseVersion: base,
				createdBy: null,
				createdByName: 'CLI',
				summary: 'a rule',
			},
			new Date(),
		)
		const page = await (await getPage(app, '/admin/config', admin)).text()
		expect(page).toContain('Site switches')
		expect(page).toContain('Announcement bar')
		expect(page).toContain('Some visitors get another value by')
		const switches = (fields: Record<string, string>) => ({
			baseVersion: String(base + 1),
			bannerAudience: 'everyone',
			bannerMessage: 'Join the river clean-up on Saturday',
			bannerLink: '/contact',
			homeLatestCount: '3',
			articlesPageSize: '10',
			pushPromptEnabled: 'on',
			contactFormEnabled: 'on',
			...fields,
		})
		const on = await postForm(app, '/admin/config', switches({}), { cookie: admin })
		expect(on.status).toBe(302)
		expect(on.headers.get('location')).toBe(`/admin/config?published=${base + 2}`)
		const published = await app.storage.config.current()
		expect(published?.summary).toContain('banner_message:')
		// On for every reader is what the site does unless told: nothing to publish for it.
		expect(published?.document.parameters.banner_enabled).toBeUndefined()
		expect(published?.document.parameters).toMatchObject({
			banner_message: { serverDefault: 'Join the river clean-up on Saturday', conditions: [] },
			banner_link: { serverDefault: '/contact', conditions: [] },
			// Left as the rule set it.
			home_latest_count: { serverDefault: 3, conditions: [{ rules: { devices: ['mobile'] } }] },
		})
		// Readers get it, as a link. The server hears of a new version on the live feed (on
		// PostgreSQL by NOTIFY), a moment after the publish answered.
		const homeOnceSettled = async (done: (html: string) => boolean) => {
			let html = ''
			for (let tries = 0; tries < 50; tries++) {
				html = await (await fetch(`${app.url}/home`)).text()
				if (done(html)) break
				await new Promise((resolve) => setTimeout(resolve, 100))
			}
			return html
		}
		const link = '<a href="/contact">Join the river clean-up on Saturday</a>'
		expect(await homeOnceSettled((html) => html.includes(link))).toContain(link)

		// The same form again changes nothing, and says so.
		const same = await postForm(app, '/admin/config', switches({ baseVersion: String(base + 2) }), {
			cookie: admin,
		})
		expect(same.status).toBe(200)
		expect(await same.text()).toContain('Nothing changed, so nothing was published.')

		// Off: readers see no bar, and the text waits in the form.
		const off = await postForm(
			app,
			'/admin/config',
			switches({ baseVersion: String(base + 2), bannerAudience: 'off' }),
			{ cookie: admin },
		)
		expect(off.status).toBe(302)
		expect(await homeOnceSettled((html) => !html.includes('river clean-up'))).not.toContain(
			'river clean-up',
		)
		const form = await (await getPage(app, '/admin/config', admin)).text()
		expect(form).toContain('Join the river clean-up on Saturday</textarea>')
		expect(form).toContain('<input type="radio" name="bannerAudience" checked="" value="off"/>')

		// Some readers: one rule on the switch.
		const some = await postForm(
			app,
			'/admin/config',
			switches({
				baseVersion: String(base + 3),
				bannerAudience: 'some',
				bannerPercent: '25',
				bannerLanguages: 'FR',
				bannerDevices: 'mobile',
			}),
			{ cookie: admin },
		)
		expect(some.status).toBe(302)
		expect((await app.storage.config.current())?.document.parameters.banner_enabled).toEqual({
			serverDefault: false,
			conditions: [{ rules: { percent: 25, languages: ['fr'], devices: ['mobile'] }, value: true }],
		})
	})

	it('answers the switches’ mistakes field by field, in the words of their labels', async () => {
		const current = (await app.storage.config.current())?.id ?? 0
		const base = {
			baseVersion: String(current),
			bannerAudience: 'everyone',
			bannerMessage: 'Hello',
			bannerLink: '',
			homeLatestCount: '3',
			articlesPageSize: '10',
		}
		const cases: [Record<string, string>, string, string][] = [
			[{ bannerLink: 'javascript:alert(1)' }, 'bannerLink-error', 'Give an address on this site'],
			[{ homeLatestCount: '40' }, 'homeLatestCount-error', 'Must be 12 or less.'],
			[{ articlesPageSize: 'many' }, 'articlesPageSize-error', 'Enter a number, such as 3.'],
			[{ bannerAudience: 'some' }, 'bannerAudience-error', 'Say which readers see it'],
			[
				{ bannerAudience: 'some', bannerPercent: '0' },
				'bannerPercent-error',
				'Must be more than 0 %.',
			],
			[{ bannerMessage: 'x'.repeat(281) }, 'bannerMessage-error', 'At most 280 characters'],
		]
		for (const [fields, id, message] of cases) {
			const response = await postForm(
				app,
				'/admin/config',
				{ ...base, ...fields },
				{ cookie: admin },
			)
			expect(response.status, id).toBe(400)
			const html = await response.text()
			expect(html, id).toContain(`<p id="${id}" class="field-error">${message}`)
			expect(html, id).toContain('Nothing was published.')
		}
		const stale = await postForm(
			app,
			'/admin/config',
			{ ...base, baseVersion: String(current - 1), bannerMessage: 'Late' },
			{ cookie: admin },
		)
		expect(stale.status).toBe(409)
		expect(await stale.text()).toContain('Nothing was published: someone else published version')
		expect((await app.storage.config.current())?.id).toBe(current)
	})

	it('answers 404 for a parameter that does not exist', async () => {
		expect((await getPage(app, '/admin/config/dark_mode', admin)).status).toBe(404)
	})
})
