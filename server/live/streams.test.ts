// The live streams over real HTTP, the inbox's in particular (it was a stream of its own before
// the one broker): events without content, heartbeats, resuming, resets, refusals, and no stream
// left on the broker when its client goes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewContactMessage } from '#storage/port/contact.ts'
import { makeUser, signIn } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { parseSse, waitUntil } from '#tests/fixtures/sse.ts'
import { inboxStreamPath } from './streams.ts'

let counter = 0
const message = (): NewContactMessage => {
	counter++
	return {
		idempotencyKey: `stream-${counter}-${Math.random()}`,
		name: 'Secret Sender',
		email: 'secret@example.org',
		subject: 'Private',
		message: 'Nothing of this belongs on the stream.',
	}
}

describe('the inbox stream', () => {
	let app: TestApp
	let cookie = ''
	beforeAll(async () => {
		app = await startTestApp({ seed: false, stream: { retryMs: 1_500, heartbeatMs: 50 } })
		await makeUser(app, 'rosa@example.org', 'editor', 'Rosa Lima')
		cookie = await signIn(app, 'rosa@example.org')
	})
	afterAll(() => app?.close())

	async function open(init: { since?: number; lastEventId?: string } = {}) {
		const controller = new AbortController()
		const query = init.since === undefined ? '' : `?since=${init.since}`
		const response = await fetch(`${app.url}${inboxStreamPath}${query}`, {
			headers: {
				Cookie: cookie,
				...(init.lastEventId ? { 'Last-Event-ID': init.lastEventId } : {}),
			},
			signal: controller.signal,
			redirect: 'manual',
		})
		const body = { text: '', done: false }
		const reader = response.body?.getReader()
		const decoder = new TextDecoder()
		;(async () => {
			for (;;) {
				const chunk = await reader?.read()
				if (!chunk || chunk.done) break
				body.text += decoder.decode(chunk.value)
			}
		})()
			.catch(() => {})
			.finally(() => {
				body.done = true
			})
		return { response, controller, body }
	}

	it('sends retry, then {kind, id} for each message change and nothing of its content', async () => {
		const stream = await open()
		expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
		await waitUntil(() => stream.body.text.includes('retry: 1500'))
		const { message: created } = await app.storage.messages.create(message(), [])
		await app.storage.messages.setRead(created.id, true)
		await app.storage.settings.set({ tagline: 'Not a message' })
		await app.storage.messages.delete(created.id)
		await waitUntil(() => parseSse(stream.body.text).events.length === 3, 5_000)
		const { events } = parseSse(stream.body.text)
		expect(events.map((event) => [event.event, JSON.parse(event.data)])).toEqual([
			['message', { kind: 'added', id: created.id }],
			['message', { kind: 'modified', id: created.id }],
			['message', { kind: 'removed', id: created.id }],
		])
		expect(events.every((event) => Number(event.id) > 0)).toBe(true)
		expect(stream.body.text).not.toMatch(/Secret|secret@|Private|Nothing of this/)
		stream.controller.abort()
	})

	it('sends a heartbeat comment while nothing happens', async () => {
		const stream = await open()
		await waitUntil(() => parseSse(stream.body.text).comments.includes('keep-alive'))
		expect(parseSse(stream.body.text).events).toEqual([])
		stream.controller.abort()
	})

	it('resumes after Last-Event-ID with what was missed, and wins over ?since=', async () => {
		const before = await app.storage.changes.latestId()
		const first = (await app.storage.messages.create(message(), [])).message
		const second = (await app.storage.messages.create(message(), [])).message
		const afterFirst = before + 1
		const stream = await open({ since: before, lastEventId: String(afterFirst) })
		await waitUntil(() => parseSse(stream.body.text).events.length === 1)
		expect(JSON.parse(parseSse(stream.body.text).events[0]?.data ?? '')).toEqual({
			kind: 'added',
			id: second.id,
		})
		expect(first.id).toBeLessThan(second.id)
		stream.controller.abort()
	})

	it('asks a client from a position it cannot replay to read everything again', async () => {
		await app.storage.messages.create(message(), [])
		const latest = await app.storage.changes.latestId()
		await waitUntil(() => app.broker.lastId === latest)
		const stream = await open({ since: latest + 50 })
		await waitUntil(() => parseSse(stream.body.text).events.length === 1)
		expect(parseSse(stream.body.text).events[0]).toMatchObject({
			event: 'reset',
			id: String(latest),
		})
		stream.controller.abort()
	})

	it('refuses a position that is not a change id, and opens no stream', async () => {
		await waitUntil(() => app.broker.size === 0, 5_000)
		const stream = await open({ lastEventId: 'abc' })
		expect(stream.response.status).toBe(400)
		await waitUntil(() => stream.body.done)
		expect(JSON.parse(stream.body.text)).toMatchObject({
			error: 'The stream position is not valid.',
		})
		expect(app.broker.size).toBe(0)
	})

	it('gives each stream’s place on the broker back when its client goes', async () => {
		await waitUntil(() => app.broker.size === 0, 5_000)
		const one = await open()
		const two = await open()
		await waitUntil(() => one.body.text.includes('retry') && two.body.text.includes('retry'))
		expect(app.broker.size).toBe(2)
		one.controller.abort()
		await waitUntil(() => app.broker.size === 1, 5_000)
		two.controller.abort()
		await waitUntil(() => app.broker.size === 0, 5_000)
	})

	it('carries no article or configuration change, and the article stream no message', async () => {
		const inbox = await open()
		const articles = new AbortController()
		const response = await fetch(`${app.url}/api/articles/stream`, { signal: articles.signal })
		let articleText = ''
		const reader = response.body?.getReader()
		;(async () => {
			for (;;) {
				const chunk = await reader?.read()
				if (!chunk || chunk.done) break
				articleText += new TextDecoder().decode(chunk.value)
			}
		})().catch(() => {})
		await waitUntil(() => inbox.body.text.includes('retry') && articleText.includes('retry'))
		const { message: created } = await app.storage.messages.create(message(), [])
		await waitUntil(() => parseSse(inbox.body.text).events.length === 1, 5_000)
		expect(JSON.parse(parseSse(inbox.body.text).events[0]?.data ?? '')).toMatchObject({
			id: created.id,
		})
		expect(parseSse(articleText).events).toEqual([])
		inbox.controller.abort()
		articles.abort()
	})
})
