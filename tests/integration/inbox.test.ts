// The inbox over real HTTP, as a browser without JavaScript uses it, and its live stream as the
// page's EventSource reads it.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewContactMessage } from '#storage/port/contact.ts'
import { makeUser, signIn } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { getPage, postForm } from '#tests/fixtures/forms.ts'
import { parseSse, waitUntil } from '#tests/fixtures/sse.ts'

/** Reads an event stream's text as it arrives, until aborted. */
async function openStream(app: TestApp, cookie: string, headers: Record<string, string> = {}) {
	const controller = new AbortController()
	const response = await fetch(`${app.url}/admin/messages/stream`, {
		headers: { Cookie: cookie, ...headers },
		signal: controller.signal,
		redirect: 'manual',
	})
	const state = { text: '', response, controller }
	const reader = response.body?.getReader()
	const decoder = new TextDecoder()
	;(async () => {
		for (;;) {
			const chunk = await reader?.read()
			if (!chunk || chunk.done) return
			state.text += decoder.decode(chunk.value)
		}
	})().catch(() => {})
	return state
}

const escapedHtml = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

describe('the inbox', () => {
	let app: TestApp
	const cookies = { editor: '', admin: '' }
	// Streams open on the app's live broker, to see that a stream gives its place back.
	const watching = () => app.broker.size

	beforeAll(async () => {
		app = await startTestApp({ seed: false })
		await makeUser(app, 'rosa@example.org', 'editor', 'Rosa Lima')
		await makeUser(app, 'ada@example.org', 'admin', 'Ada Admin')
		cookies.editor = await signIn(app, 'rosa@example.org')
		cookies.admin = await signIn(app, 'ada@example.org')
	})
	afterAll(async () => {
		await app?.close()
	})

	const receive = async (overrides: Partial<NewContactMessage> = {}) =>
		(
			await app.storage.messages.create(
				{
					idempotencyKey: randomUUID(),
					name: 'Ines Duarte',
					email: 'ines@coast.example',
					subject: 'Eelgrass survey',
					message: 'We counted the eelgrass beds.',
					...overrides,
				},
				[],
			)
		).message

	const page = async (path: string, cookie: string) => {
		const response = await getPage(app, path, cookie)
		// React's markers between text parts (`<!-- -->`) are not what a reader sees.
		const html = (await response.text()).replaceAll('<!-- -->', '')
		return { status: response.status, html, response }
	}

	it('sends a visitor without a session to sign in, from every inbox address, stream included', async () => {
		const { id } = await receive({ message: 'Not for strangers.' })
		for (const path of ['/admin/messages', `/admin/messages/${id}`, '/admin/messages/stream']) {
			const response = await getPage(app, path)
			expect(response.status, path).toBe(302)
			expect(response.headers.get('location'), path).toBe(
				`/admin/sign-in?next=${encodeURIComponent(path)}`,
			)
			const body = await response.text()
			expect(body, path).not.toContain('Not for strangers')
			expect(body, path).not.toContain('data:')
		}
		const data = await getPage(app, `/admin/messages/${id}.data`)
		expect(await data.text()).not.toContain('Not for strangers')
		const posted = await postForm(app, `/admin/messages/${id}`, { intent: 'delete' })
		expect(posted.status).toBe(302)
		expect(await app.storage.messages.get(id)).toBeDefined()
		expect(watching()).toBe(0)
	})

	it('lists messages with sender, subject, time and a "New" badge, and counts unread in the navigation', async () => {
		const before = await app.storage.messages.unreadCount()
		await receive({ name: 'Tom Berg', email: 'tom@heron.example', subject: 'Heron colony' })
		const { status, html } = await page('/admin/messages', cookies.editor)
		expect(status).toBe(200)
		const unread = before + 1
		expect(html).toContain('Tom Berg')
		expect(html).toContain('tom@heron.example')
		expect(html).toContain('Heron colony')
		expect(html).toMatch(/New<span class="visually-hidden">, not read yet:<\/span>/)
		expect(html).toMatch(/<time dateTime="\d{4}-\d\d-\d\dT/)
		expect(html).toContain(`<p class="inbox-unread">${unread} unread</p>`)
		// The navigation: "Inbox (n)" to the eye, "Inbox, n unread" to a screen reader.
		expect(html).toMatch(
			new RegExp(
				`aria-label="Inbox, ${unread} unread"[^>]*href="/admin/messages"[^>]*>Inbox \\(${unread}\\)</a>`,
			),
		)
	})

	it('counts a message read in the navigation of the very page that opens it, without JavaScript', async () => {
		const { id } = await receive({ name: 'Ida Moss', email: 'ida@moss.example', subject: 'Moss' })
		const before = await app.storage.messages.unreadCount()
		const { status, html } = await page(`/admin/messages/${id}`, cookies.editor)
		expect(status).toBe(200)
		const after = before - 1
		expect(await app.storage.messages.unreadCount()).toBe(after)
		expect(html).toMatch(
			after === 0
				? /aria-label="Inbox"|>Inbox<\/a>/
				: new RegExp(`aria-label="Inbox, ${after} unread"`),
		)
	})

	it('lets an editor and an admin open, mark unread, archive, restore and delete a message', async () => {
		for (const role of ['editor', 'admin'] as const) {
			const cookie = cookies[role]
			const { id } = await receive({ subject: `For the ${role}` })
			const opened = await page(`/admin/messages/${id}`, cookie)
			expect(opened.status, role).toBe(200)
			expect(opened.html).toContain(`For the ${role}`)
			expect((await app.storage.messages.get(id))?.readAt, role).not.toBeNull()

			const unread = await postForm(app, `/admin/messages/${id}`, { intent: 'unread' }, { cookie })
			expect(unread.status, role).toBe(302)
			expect(unread.headers.get('location')).toBe('/admin/messages?done=unread')
			expect((await app.storage.messages.get(id))?.readAt, role).toBeNull()
			expect((await page('/admin/messages?done=unread', cookie)).html).toContain(
				'Marked as unread.',
			)

			const archived = await postForm(
				app,
				`/admin/messages/${id}`,
				{ intent: 'archive' },
				{ cookie },
			)
			expect(archived.headers.get('location')).toBe('/admin/messages?done=archive')
			expect((await app.storage.messages.get(id))?.archivedAt, role).not.toBeNull()
			expect((await page('/admin/messages?box=archived', cookie)).html).toContain(`For the ${role}`)
			expect((await page('/admin/messages', cookie)).html).not.toContain(`For the ${role}`)

			const restored = await postForm(
				app,
				`/admin/messages/${id}`,
				{ intent: 'unarchive' },
				{ cookie },
			)
			expect(restored.status, role).toBe(302)
			expect((await app.storage.messages.get(id))?.archivedAt, role).toBeNull()

			const deleted = await postForm(app, `/admin/messages/${id}`, { intent: 'delete' }, { cookie })
			expect(deleted.headers.get('location')).toBe('/admin/messages?done=delete')
			expect(await app.storage.messages.get(id), role).toBeUndefined()
			expect((await page(`/admin/messages/${id}`, cookie)).status).toBe(404)
		}
	})

	it('asks for the delete to be confirmed in a second step', async () => {
		const { id } = await receive()
		const { html } = await page(`/admin/messages/${id}`, cookies.editor)
		expect(html).toMatch(
			/<details><summary>Delete this message…<\/summary><form[^>]*method="post"[^>]*>[\s\S]*value="delete"[^>]*>Delete for good<\/button><\/form><\/details>/,
		)
	})

	it('answers an unknown action 400 and a missing message 404, in words', async () => {
		const { id } = await receive()
		const refused = await postForm(
			app,
			`/admin/messages/${id}`,
			{ intent: 'publish' },
			{ cookie: cookies.editor },
		)
		expect(refused.status).toBe(400)
		expect(await refused.text()).toContain(
			'Choose to mark the message read or unread, archive it, or delete it.',
		)
		for (const path of ['/admin/messages/999999', '/admin/messages/not-a-number']) {
			const missing = await page(path, cookies.editor)
			expect(missing.status, path).toBe(404)
			expect(missing.html).toContain('Message not found')
		}
		const gone = await postForm(
			app,
			'/admin/messages/999999',
			{ intent: 'delete' },
			{ cookie: cookies.editor },
		)
		expect(gone.status).toBe(404)
	})

	it('refuses an action posted from another site', async () => {
		const { id } = await receive()
		const response = await postForm(
			app,
			`/admin/messages/${id}`,
			{ intent: 'delete' },
			{ cookie: cookies.editor, headers: { Origin: 'https://evil.example' } },
		)
		expect(response.status).toBe(403)
		expect(await app.storage.messages.get(id)).toBeDefined()
	})

	it('searches by sender and by text, in each box', async () => {
		await receive({
			name: 'Marta Kowalska',
			email: 'marta@dunes.example',
			message: 'Sand lizards.',
		})
		await receive({ name: 'Olu Ade', email: 'olu@example.org', message: 'Natterjack toads spawn.' })
		const search = async (q: string, box = '') =>
			(await page(`/admin/messages?q=${encodeURIComponent(q)}${box}`, cookies.editor)).html
		const byName = await search('kowalska')
		expect(byName).toContain('Marta Kowalska')
		expect(byName).not.toContain('Olu Ade')
		expect(await search('dunes.example')).toContain('Marta Kowalska')
		const byText = await search('natterjack')
		expect(byText).toContain('Olu Ade')
		expect(byText).not.toContain('Marta Kowalska')
		expect(byText).toContain('matching “natterjack”')
		expect(await search('natterjack', '&box=archived')).toContain('No message matches.')
		// In any script, with or without its marks, as a reader types it.
		await receive({ name: 'Йоанна Ζαχαρίου', email: 'z@example.org', message: 'أين الأرض؟' })
		for (const typed of ['йоанна', 'иоанна', 'ζαχαριου', 'الارض'])
			expect(await search(typed), typed).toContain('Йоанна Ζαχαρίου')
	})

	it('shows markup in a message as text, never as HTML, in the list and on its page', async () => {
		const payload = '<script>alert("inbox")</script><img src=x onerror=alert(1)>'
		const { id } = await receive({
			name: '<b>Mallory</b>',
			subject: `<script>alert("subject")</script>`,
			message: `Hello\n${payload}`,
		})
		for (const path of ['/admin/messages', `/admin/messages/${id}`]) {
			const { html } = await page(path, cookies.editor)
			expect(html, path).not.toContain('<script>alert(')
			expect(html, path).not.toContain('<img src=x')
			expect(html, path).not.toContain('<b>Mallory</b>')
			expect(html, path).toContain(escapedHtml('<b>Mallory</b>'))
		}
		const { html } = await page(`/admin/messages/${id}`, cookies.editor)
		expect(html).toContain(
			`<p class="message-text">Hello\n${escapedHtml(payload).replace(/"/g, '&quot;')}</p>`,
		)
	})

	it('links a reply by email with "Re: subject" percent-encoded', async () => {
		const { id } = await receive({ email: 'ana+marsh@example.org', subject: 'Tides & dunes? #3' })
		const { html } = await page(`/admin/messages/${id}`, cookies.editor)
		expect(html).toContain(
			'href="mailto:ana%2Bmarsh@example.org?subject=Re%3A%20Tides%20%26%20dunes%3F%20%233">Reply by email</a>',
		)
	})

	it('streams a new message to a signed-in editor as {kind, id}, and gives its place back when the client goes', async () => {
		const stream = await openStream(app, cookies.editor)
		expect(stream.response.status).toBe(200)
		expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
		// Security headers on the stream too.
		expect(stream.response.headers.get('x-content-type-options')).toBe('nosniff')
		await waitUntil(() => stream.text.includes('retry:'))
		expect(watching()).toBe(1)
		const { id } = await receive({ name: 'Live Sender' })
		await waitUntil(() => parseSse(stream.text).events.length > 0, 5_000)
		const [event] = parseSse(stream.text).events
		expect(event?.event).toBe('message')
		expect(JSON.parse(event?.data ?? '')).toEqual({ kind: 'added', id })
		expect(stream.text).not.toContain('Live Sender')

		stream.controller.abort()
		await waitUntil(() => watching() === 0, 5_000)
	})

	it('replays to a reconnecting client what it missed after its Last-Event-ID', async () => {
		const position = await app.storage.changes.latestId()
		const { id } = await receive()
		const stream = await openStream(app, cookies.admin, { 'Last-Event-ID': String(position) })
		await waitUntil(() => parseSse(stream.text).events.length > 0, 5_000)
		expect(JSON.parse(parseSse(stream.text).events[0]?.data ?? '')).toEqual({ kind: 'added', id })
		app.server.closeAllConnections()
		await waitUntil(() => watching() === 0, 5_000)
	})
})
