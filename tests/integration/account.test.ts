// One's own account in /admin/account: the editor area's language, and the password.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createUser } from '#app/features/auth/users.server.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { postForm } from '#tests/fixtures/forms.ts'

const oldPassword = 'estuary salt marsh 12'
const newPassword = 'peat bogs store carbon 34'

describe('own account', () => {
	let app: TestApp

	beforeEach(async () => {
		app = await startTestApp({ seed: false })
		await createUser(app.auth, app.storage, {
			email: 'ana@example.org',
			name: 'Ana Costa',
			role: 'editor',
			password: oldPassword,
		})
	})
	afterEach(async () => {
		await app.close()
	})

	const post = (path: string, fields: Record<string, string>, cookie = '') =>
		postForm(app, path, fields, { cookie })
	const signIn = async (password: string) => {
		const response = await post('/admin/sign-in', { email: 'ana@example.org', password })
		return {
			status: response.status,
			cookie: response.headers
				.getSetCookie()
				.map((value) => value.split(';')[0])
				.join('; '),
		}
	}
	const isSignedIn = async (cookie: string) =>
		(await fetch(`${app.url}/admin`, { headers: { Cookie: cookie }, redirect: 'manual' }))
			.status === 200

	it('links to the author profile whose name readers see, once there is one', async () => {
		const { cookie } = await signIn(oldPassword)
		const page = () =>
			fetch(`${app.url}/admin/account`, { headers: { Cookie: cookie } }).then((r) => r.text())
		expect(await page()).not.toContain('author profile')
		const users = await app.storage.accounts.list()
		const ana = users.find((user) => user.email === 'ana@example.org')
		if (!ana) throw new Error('no account')
		const profile = await app.storage.authors.forUser(ana.id, 'Ana Costa')
		expect(await page()).toMatch(
			new RegExp(`<a [^>]*href="/admin/authors/${profile.id}"[^>]*>author profile</a>`),
		)
	})

	it('refuses a wrong current password and a weak new one, with words for each field', async () => {
		const { cookie } = await signIn(oldPassword)
		const wrong = await post(
			'/admin/account',
			{ currentPassword: 'not my password 9', newPassword },
			cookie,
		)
		expect(wrong.status).toBe(400)
		expect(await wrong.text()).toContain('That is not your current password.')
		const weak = await post(
			'/admin/account',
			{ currentPassword: oldPassword, newPassword: 'qwertyuiop' },
			cookie,
		)
		expect(weak.status).toBe(400)
		expect(await weak.text()).toContain('This is one of the most common passwords')
		expect((await signIn(oldPassword)).status).toBe(302)
	})

	it('changes the password, keeps this device signed in and signs out the others', async () => {
		const here = await signIn(oldPassword)
		const elsewhere = await signIn(oldPassword)
		const changed = await post(
			'/admin/account',
			{ currentPassword: oldPassword, newPassword },
			here.cookie,
		)
		expect(changed.status).toBe(200)
		expect(await changed.text()).toContain('Your password is changed')
		const renewed = changed.headers
			.getSetCookie()
			.map((value) => value.split(';')[0])
			.join('; ')

		expect(await isSignedIn(renewed || here.cookie)).toBe(true)
		expect(await isSignedIn(elsewhere.cookie)).toBe(false)
		expect((await signIn(oldPassword)).status).toBe(401)
		expect((await signIn(newPassword)).status).toBe(302)
	})

	it('is behind the sign-in like the rest of the editor area', async () => {
		const response = await post('/admin/account', { currentPassword: oldPassword, newPassword })
		expect(response.status).toBe(302)
		expect((await signIn(oldPassword)).status).toBe(302)
	})

	it('speaks the language the account chose in the editor area only, whatever the browser asks', async () => {
		const { cookie } = await signIn(oldPassword)
		const read = async (path: string) => {
			const response = await fetch(`${app.url}${path}`, {
				headers: { Cookie: cookie, 'Accept-Language': 'en-GB,en;q=0.9' },
			})
			const html = await response.text()
			return { lang: /<html lang="([^"]+)"/.exec(html)?.[1], html }
		}
		expect((await read('/admin/account')).lang).toBe('en')

		const refused = await post(
			'/admin/account',
			{ intent: 'language', interfaceLanguage: 'xx' },
			cookie,
		)
		expect(refused.status).toBe(400)
		expect(await refused.text()).toContain('Choose one of the languages in the list.')

		const saved = await post(
			'/admin/account',
			{ intent: 'language', interfaceLanguage: 'fr' },
			cookie,
		)
		expect(saved.status).toBe(200)
		// The answer is in the language chosen already.
		const answer = await saved.text()
		expect(answer).toContain('<html lang="fr"')
		expect(answer).toContain('Enregistré.')
		const account = await read('/admin/account')
		expect(account.lang).toBe('fr')
		expect(account.html).toContain('<h1>Votre compte</h1>')
		expect((await read('/admin/articles')).lang).toBe('fr')
		// Readers' pages stay in the reader's language, which this site offers (English only).
		expect((await read('/articles')).lang).toBe('en')
		// Down to the words the server's rules write: the editor's refusal of a translation link.
		const refusedLink = await post(
			'/admin/articles/new',
			{
				title: 'Les vasières',
				summary: 'La boue qui nourrit les oiseaux.',
				body: 'Les vasières sont **riches**.',
				translationOf: 'no-such-article',
				intent: 'draft',
			},
			cookie,
		)
		expect(refusedLink.status).toBe(400)
		expect(await refusedLink.text()).toContain(
			'Aucun article ni aucune page à cette adresse. Indiquez l’adresse (slug) de celui que ceci traduit.',
		)
		// The password's form is untouched by the language's.
		expect((await signIn(oldPassword)).status).toBe(302)

		await post('/admin/account', { intent: 'language', interfaceLanguage: '' }, cookie)
		expect((await read('/admin/account')).lang).toBe('en')
	})
})
