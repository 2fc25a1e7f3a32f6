// The inbox's event stream as a Response: events, heartbeats, resuming, and no watch left behind.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { databases, type TestDatabase } from '#tests/fixtures/storage.ts'
import { parseSse, waitUntil } from '#tests/fixtures/sse.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { inboxStreamResponse } from './inbox-stream.server.ts'

/** Reads a stream's text as it arrives. */
function collect(response: Response) {
	const reader = response.body?.getReader()
	if (!reader) throw new Error('The response has no body.')
	const decoder = new TextDecoder()
	const state = { text: '', done: false, reader }
	;(async () => {
		for (;;) {
			const { value, done } = await reader.read()
			if (done) break
			state.text += decoder.decode(value)
		}
		state.done = true
	})().catch(() => {
		state.done = true
	})
	return state
}

let counter = 0
const message = () => {
	counter++
	return {
		idempotencyKey: `stream-${counter}-${Math.random()}`,
		name: 'Secret Sender',
		email: 'secret@example.org',
		subject: 'Private',
		message: 'Nothing of this belongs on the stream.',
	}
}

describe.each(databases)('the inbox stream on $name', ({ create }) => {
	let database: TestDatabase
	let storage: Storage
	let watching: number

	beforeEach(async () => {
		database = await create()
		storage = database.open()
		await storage.migrate()
		// Counts the database watches held open, to prove each one is stopped.
		watching = 0
		const watch = storage.changes.watch.bind(storage.changes)
		storage.changes.watch = (wake) => {
			watching++
			const stop = watch(wake)
			return () => {
				watching--
				stop()
			}
		}
	})
	afterEach(async () => {
		await storage.close()
		await database.drop()
	})

	const open = (init: { since?: number; lastEventId?: string; heartbeatMs?: number } = {}) => {
		const controller = new AbortController()
		const url = `http://127.0.0.1/admin/messages/stream${init.since === undefined ? '' : `?since=${init.since}`}`
		const request = new Request(url, {
			signal: controller.signal,
			headers: init.lastEventId ? { 'Last-Event-ID': init.lastEventId } : {},
		})
		const response = inboxStreamResponse(storage, request, {
			heartbeatMs: init.heartbeatMs,
			retryMs: 1_500,
		})
		return { response, controller, body: collect(response) }
	}

	it('sends retry, then {kind, id} for each message change and nothing of its content', async () => {
		const stream = open()
		expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
		await waitUntil(() => stream.body.text.includes('retry: 1500'))
		await waitUntil(() => watching === 1)
		const { message: created } = await storage.messages.create(message(), [])
		await storage.messages.setRead(created.id, true)
		await storage.settings.set({ tagline: 'Not a message' })
		await storage.messages.delete(created.id)
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
		const stream = open({ heartbeatMs: 20 })
		await waitUntil(() => parseSse(stream.body.text).comments.includes('keep-alive'))
		expect(parseSse(stream.body.text).events).toEqual([])
		stream.controller.abort()
	})

	it('resumes after Last-Event-ID with what was missed, and wins over ?since=', async () => {
		const before = await storage.changes.latestId()
		const first = (await storage.messages.create(message(), [])).message
		const second = (await storage.messages.create(message(), [])).message
		const afterFirst = before + 1
		const stream = open({ since: before, lastEventId: String(afterFirst) })
		await waitUntil(() => parseSse(stream.body.text).events.length === 1)
		expect(JSON.parse(parseSse(stream.body.text).events[0]?.data ?? '')).toEqual({
			kind: 'added',
			id: second.id,
		})
		expect(first.id).toBeLessThan(second.id)
		stream.controller.abort()
	})

	it('asks a client from a position it cannot replay to read everything again', async () => {
		await storage.messages.create(message(), [])
		const latest = await storage.changes.latestId()
		const stream = open({ since: latest + 50 })
		await waitUntil(() => parseSse(stream.body.text).events.length === 1)
		expect(parseSse(stream.body.text).events[0]).toMatchObject({
			event: 'reset',
			id: String(latest),
		})
		stream.controller.abort()
	})

	it('refuses a position that is not a change id', async () => {
		const controller = new AbortController()
		const response = inboxStreamResponse(
			storage,
			new Request('http://127.0.0.1/admin/messages/stream?since=abc', {
				signal: controller.signal,
			}),
		)
		expect(response.status).toBe(400)
		expect(await response.json()).toMatchObject({ error: 'The stream position is not valid.' })
		expect(watching).toBe(0)
	})

	it('shares one database watch between streams and stops it when the last one ends', async () => {
		const one = open()
		const two = open()
		await waitUntil(() => one.body.text.includes('retry') && two.body.text.includes('retry'))
		expect(watching).toBe(1)
		one.controller.abort()
		await waitUntil(() => one.body.done)
		expect(watching).toBe(1)
		two.controller.abort()
		await waitUntil(() => two.body.done)
		expect(watching).toBe(0)
	})

	it('stops its watch when the reader cancels, as when the socket goes away', async () => {
		const stream = open()
		await waitUntil(() => watching === 1)
		await stream.body.reader.cancel()
		expect(watching).toBe(0)
	})
})
