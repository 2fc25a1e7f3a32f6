// The team page and invites, as plain form posts over real HTTP.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { linkIdentifier } from '#app/features/auth/one-time-links.server.ts'
import { createResetLink } from '#app/features/auth/password-reset.server.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import {
	cookieOf,
	getPage,
	isSignedIn,
	makeAccount,
	postForm,
	signIn,
	teamPassword,
} from '#tests/fixtures/forms.ts'
import { databases } from '#tests/fixtures/storage.ts'

/** The one-time link on the page (shown in a read-only field), unescaped. */
function linkOn(html: string, path: string): string {
	const found = new RegExp(`value="(http[^"]*${path}\\?token=[A-Za-z0-9_-]+)"`).exec(html)?.[1]
	if (!found) throw new Error(`No ${path} link on the page`)
	return found
}

describe('the team page', () => {
	let app: TestApp
	let rosaId: string
	let anaId: string
	let rosa: string

	beforeEach(async () => {
		app = await startTestApp({ seed: false })
		rosaId = await makeAccount(app, 'rosa@example.org', 'admin', 'Rosa')
		anaId = await makeAccount(app, 'ana@example.org', 'editor', 'Ana')
		rosa = (await signIn(app, 'rosa@example.org', teamPassword)).cookie
	})
	afterEach(async () => {
		await app.close()
	})

	const team = (fields: Record<string, string>, cookie = rosa) =>
		postForm(app, '/admin/team', fields, { cookie })

	it('lists every account with its role and whether it is active', async () => {
		await team({ intent: 'deactivate', userId: anaId })
		const page = await getPage(app, '/admin/team', rosa)
		expect(page.status).toBe(200)
		const html = await page.text()
		expect(html).toContain('ana@example.org')
		expect(html).toContain('rosa@example.org')
		expect(html).toMatch(/ana@example\.org.*Editor.*Deactivated/s)
		expect(html).toMatch(/rosa@example\.org.*Admin.*Active/s)
	})

	it('refuses an editor every action, before any of it runs', async () => {
		const ana = (await signIn(app, 'ana@example.org', teamPassword)).cookie
		const promoted = await team({ intent: 'role', userId: anaId, role: 'admin' }, ana)
		expect(promoted.status).toBe(403)
		const invited = await team(
			{ intent: 'invite', email: 'mallory@example.org', name: 'M', role: 'admin' },
			ana,
		)
		expect(invited.status).toBe(403)
		expect(await invited.text()).not.toContain('/admin/invite?token=')
		const html = await (await getPage(app, '/admin/team', rosa)).text()
		expect(html).toMatch(/ana@example\.org.*Editor/s)
	})

	it('never leaves the site without an active admin', async () => {
		const demote = await team({ intent: 'role', userId: rosaId, role: 'editor' })
		expect(demote.status).toBe(409)
		expect(await demote.text()).toContain('Rosa is the only active admin.')
		const self = await team({ intent: 'deactivate', userId: rosaId })
		expect(self.status).toBe(409)
		expect(await self.text()).toContain('You cannot deactivate your own account.')

		// With a second admin, one may step down; the other is then the last and stays.
		expect((await team({ intent: 'role', userId: anaId, role: 'admin' })).status).toBe(200)
		const ana = (await signIn(app, 'ana@example.org', teamPassword)).cookie
		expect((await getPage(app, '/admin/team', ana)).status).toBe(200)
		expect((await team({ intent: 'role', userId: rosaId, role: 'editor' })).status).toBe(200)
		const last = await team({ intent: 'deactivate', userId: anaId }, rosa)
		// Rosa is an editor now: the page is closed to her.
		expect(last.status).toBe(403)
		const back = await team({ intent: 'role', userId: anaId, role: 'editor' }, ana)
		expect(back.status).toBe(409)
		expect(await back.text()).toContain('Ana is the only active admin.')
	})

	it('answers a form with missing or wrong fields with words for each', async () => {
		const bad = await team({ intent: 'invite', email: 'not an email', name: '', role: 'owner' })
		expect(bad.status).toBe(400)
		const html = await bad.text()
		expect(html).toContain('Enter an email address like name@example.org.')
		expect(html).toContain('Enter a name.')
		expect(html).toContain('The role must be admin or editor.')
		expect(html).toMatch(/aria-invalid="true"/)
		const taken = await team({
			intent: 'invite',
			email: 'ANA@example.org',
			name: 'A',
			role: 'editor',
		})
		expect(await taken.text()).toContain('There is already an account with this email address.')
		const unknown = await team({ intent: 'promote-everyone' })
		expect(unknown.status).toBe(400)
		expect(await unknown.text()).toContain('That action is not known.')
	})

	it('invites someone whose link works once, after a typo, and signs them in', async () => {
		const made = await team({
			intent: 'invite',
			email: 'Lea@Example.org',
			name: 'Lea Park',
			role: 'editor',
		})
		expect(made.status).toBe(200)
		const link = linkOn(await made.text(), '/admin/invite')
		const token = new URL(link).searchParams.get('token') ?? ''
		// Only the hash is kept.
		const rows = await app.storage.authDatabase.db
			.selectFrom('verification' as never)
			.selectAll()
			.execute()
		expect(JSON.stringify(rows)).not.toContain(token)
		expect(JSON.stringify(rows)).toContain(linkIdentifier('invite', token))

		const form = await fetch(link)
		expect(form.status).toBe(200)
		const formHtml = await form.text()
		expect(formHtml).toContain('lea@example.org')
		expect(formHtml).toContain('value="Lea Park"')

		const typo = await postForm(app, link, { name: 'Lea Park', password: 'password123' })
		expect(typo.status).toBe(400)
		expect(await typo.text()).toContain('This is one of the most common passwords')

		const accepted = await postForm(app, link, {
			name: 'Lea P.',
			password: 'kelp forests grow fast',
		})
		expect(accepted.status).toBe(302)
		expect(accepted.headers.get('location')).toBe('/admin')
		const home = await getPage(app, '/admin', cookieOf(accepted))
		expect(await home.text()).toContain('Signed in as <strong>Lea P.</strong>')

		const again = await postForm(app, link, { name: 'Eve', password: 'kelp forests grow fast' })
		expect(again.status).toBe(403)
		expect(await again.text()).toContain('This invite link does not work')
		expect((await fetch(link)).status).toBe(403)
	})

	it('refuses an invite link after 7 days', async () => {
		const made = await team({
			intent: 'invite',
			email: 'lea@example.org',
			name: 'Lea',
			role: 'admin',
		})
		const link = linkOn(await made.text(), '/admin/invite')
		const identifier = linkIdentifier('invite', new URL(link).searchParams.get('token') ?? '')
		const context = await app.auth.$context
		await context.internalAdapter.updateVerificationByIdentifier(identifier, {
			expiresAt: new Date(Date.now() - 1_000),
		})
		const page = await fetch(link)
		expect(page.status).toBe(403)
		expect(await page.text()).toContain('more than 7 days old')
		const posted = await postForm(app, link, { name: 'Lea', password: 'kelp forests grow fast' })
		expect(posted.status).toBe(403)
		expect(await context.internalAdapter.findUserByEmail('lea@example.org')).toBeNull()
	})

	it('changes a role, which the account feels on its next request', async () => {
		const ana = (await signIn(app, 'ana@example.org', teamPassword)).cookie
		expect((await getPage(app, '/admin/team', ana)).status).toBe(403)
		const done = await team({ intent: 'role', userId: anaId, role: 'admin' })
		expect(await done.text()).toContain('Ana is now an admin.')
		expect((await getPage(app, '/admin/team', ana)).status).toBe(200)
		expect(await isSignedIn(app, ana)).toBe(true)
	})
})

// On both databases: the list reads better-auth's verification table by a prefix of its key.
describe.each(databases)('pending invites: $name', ({ create }) => {
	let app: TestApp
	let rosa: string
	let rosaId: string

	beforeEach(async () => {
		app = await startTestApp({ seed: false, database: create })
		rosaId = await makeAccount(app, 'rosa@example.org', 'admin', 'Rosa')
		rosa = (await signIn(app, 'rosa@example.org', teamPassword)).cookie
	})
	afterEach(async () => {
		await app.close()
	})

	const team = (fields: Record<string, string>) =>
		postForm(app, '/admin/team', fields, { cookie: rosa })
	const invite = async (email: string, name: string, role = 'editor') =>
		linkOn(await (await team({ intent: 'invite', email, name, role })).text(), '/admin/invite')
	const teamPage = async () => (await getPage(app, '/admin/team', rosa)).text()
	/** The id each pending invite's cancel button posts, by address. */
	const pending = (html: string) => {
		const list = /<ul class="members invites">(.*?)<\/ul>/s.exec(html)?.[1] ?? ''
		return Object.fromEntries(
			[...list.matchAll(/<span>([^<]+@[^<]+)<\/span>.*?name="inviteId" value="([^"]+)"/gs)].map(
				([, email, id]) => [email, id],
			),
		)
	}

	it('lists invites not taken up; one cancelled stops working, one accepted leaves the list', async () => {
		expect(await teamPage()).not.toContain('Invited, not joined yet')
		const lea = await invite('lea@example.org', 'Lea Park')
		const omar = await invite('omar@example.org', 'Omar Said', 'admin')
		let html = await teamPage()
		expect(html).toContain('Invited, not joined yet')
		expect(html).toMatch(/Omar Said.*omar@example\.org.*Admin.*Link works until/s)
		expect(Object.keys(pending(html)).sort()).toEqual(['lea@example.org', 'omar@example.org'])

		const cancelled = await team({
			intent: 'cancel-invite',
			inviteId: pending(html)['omar@example.org'] ?? '',
		})
		expect(cancelled.status).toBe(200)
		expect(await cancelled.text()).toContain(
			'The invitation to omar@example.org is cancelled: its link no longer works.',
		)
		expect((await fetch(omar)).status).toBe(403)
		const late = await postForm(app, omar, { name: 'Omar', password: 'kelp forests grow fast' })
		expect(late.status).toBe(403)
		// Cancelling it again says it is gone, and nothing else changes.
		const twice = await team({
			intent: 'cancel-invite',
			inviteId: pending(html)['omar@example.org'] ?? '',
		})
		expect(twice.status).toBe(409)
		expect(await twice.text()).toContain('That invitation was no longer open')

		const accepted = await postForm(app, lea, { name: 'Lea', password: 'kelp forests grow fast' })
		expect(accepted.status).toBe(302)
		html = await teamPage()
		expect(pending(html)).toEqual({})
		expect(html).not.toContain('Invited, not joined yet')
	})

	it('replaces an address’s earlier invite when it is invited again', async () => {
		const first = await invite('lea@example.org', 'Lea', 'admin')
		const second = await invite('lea@example.org', 'Lea Park', 'editor')
		expect(Object.keys(pending(await teamPage()))).toEqual(['lea@example.org'])
		expect((await fetch(first)).status).toBe(403)
		expect((await fetch(second)).status).toBe(200)
	})

	it('refuses to cancel anything but an invite: a reset link’s row stays, and works', async () => {
		const reset = await createResetLink(app.auth, app.url, rosaId)
		const context = await app.auth.$context
		const rows = await context.adapter.findMany<{ id: string }>({
			model: 'verification',
			where: [{ field: 'identifier', operator: 'starts_with', value: 'canopy-reset:' }],
		})
		expect(rows).toHaveLength(1)
		const refused = await team({ intent: 'cancel-invite', inviteId: rows[0]?.id ?? '' })
		expect(refused.status).toBe(409)
		expect((await fetch(reset)).status).toBe(200)
		expect((await team({ intent: 'cancel-invite', inviteId: 'no-such-row' })).status).toBe(409)
		const empty = await team({ intent: 'cancel-invite', inviteId: '' })
		expect(empty.status).toBe(400)
	})
})
