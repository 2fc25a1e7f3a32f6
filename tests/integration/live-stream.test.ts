// GET /api/articles/stream with a real EventSource client over real HTTP.

import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EventSource } from 'eventsource'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ArticleEvent } from '#app/features/articles/article-types.ts'
import { saveArticle } from '#app/features/articles/articles.server.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { parseSse, waitUntil } from '#tests/fixtures/sse.ts'

interface Received {
	id: number
	event: ArticleEvent
}

function listen(url: string) {
	const source = new EventSource(url)
	const received: Received[] = []
	const resets: number[] = []
	source.addEventListener('article', (message) => {
		received.push({ id: Number(message.lastEventId), event: JSON.parse(message.data) })
	})
	source.addEventListener('reset', (message) => resets.push(Number(message.lastEventId)))
	const opened = new Promise<void>((resolve) =>
		source.addEventListener('open', () => resolve(), { once: true }),
	)
	return { source, received, resets, opened }
}

const titles = (received: Received[]) =>
	received.map(({ event }) => (event.kind === 'removed' ? `-${event.id}` : event.article.title))

describe('article stream', () => {
	let app: TestApp
	const sources: EventSource[] = []

	beforeAll(async () => {
		app = await startTestApp({ stream: { retryMs: 100 } })
	})
	afterEach(() => {
		for (const source of sources.splice(0)) source.close()
	})
	afterAll(async () => {
		await app?.close()
	})

	const open = (query: string) => {
		const client = listen(`${app.url}/api/articles/stream${query}`)
		sources.push(client.source)
		return client
	}

	it('delivers a published article at once, its change id as the event id', async () => {
		const client = open(`?since=${app.broker.lastId}`)
		await client.opened
		const saved = await saveArticle(
			app.storage,
			{ title: 'Rewilding rivers', body: 'Text.' },
			'published',
		)
		await waitUntil(() => client.received.length === 1)
		expect(client.received[0]?.id).toBe(saved.ok && saved.change?.id)
		expect(client.received[0]?.event).toMatchObject({
			kind: 'added',
			article: { title: 'Rewilding rivers' },
		})
	})

	it('resumes after a dropped connection with nothing missed or doubled', async () => {
		const client = open(`?since=${app.broker.lastId}`)
		await client.opened
		await saveArticle(app.storage, { title: 'Before the drop', body: 'x' }, 'published')
		await waitUntil(() => client.received.length === 1)
		// Cut every connection, publish while the client is away, and let it come back by itself.
		app.server.closeAllConnections()
		await saveArticle(app.storage, { title: 'During the drop 1', body: 'x' }, 'published')
		await saveArticle(app.storage, { title: 'During the drop 2', body: 'x' }, 'published')
		await waitUntil(() => client.received.length >= 3, 5_000)
		await saveArticle(app.storage, { title: 'After the drop', body: 'x' }, 'published')
		await waitUntil(() => client.received.length >= 4)
		await new Promise((resolve) => setTimeout(resolve, 300))
		expect(titles(client.received)).toEqual([
			'Before the drop',
			'During the drop 1',
			'During the drop 2',
			'After the drop',
		])
		const ids = client.received.map((item) => item.id)
		expect(ids).toEqual([...ids].sort((a, b) => a - b))
	})

	it('prefers Last-Event-ID over ?since= and replays from there', async () => {
		const start = app.broker.lastId
		await saveArticle(app.storage, { title: 'Replay one', body: 'x' }, 'published')
		await saveArticle(app.storage, { title: 'Replay two', body: 'x' }, 'published')
		const controller = new AbortController()
		const response = await fetch(`${app.url}/api/articles/stream?since=0`, {
			headers: { 'Last-Event-ID': String(start + 1) },
			signal: controller.signal,
		})
		const reader = (response.body as ReadableStream<Uint8Array>).getReader()
		let text = ''
		while (!text.includes('Replay two'))
			text += new TextDecoder().decode((await reader.read()).value)
		controller.abort()
		const events = parseSse(text).events.map((event) => JSON.parse(event.data).article?.title)
		expect(events).toEqual(['Replay two'])
		expect(parseSse(text).retry).toBe(100)
	})

	it('tells a client whose position is unknown to reload', async () => {
		const client = open('?since=999999')
		await waitUntil(() => client.resets.length === 1)
		expect(client.resets[0]).toBe(app.broker.lastId)
	})

	it('sends stream headers, and 400 with a field message for a bad position', async () => {
		const controller = new AbortController()
		const ok = await fetch(`${app.url}/api/articles/stream`, { signal: controller.signal })
		expect(ok.status).toBe(200)
		expect(ok.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
		expect(ok.headers.get('cache-control')).toBe('no-cache, no-transform')
		expect(ok.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
		expect(ok.headers.get('x-content-type-options')).toBe('nosniff')
		controller.abort()
		for (const headers of [{}, { 'Last-Event-ID': 'x' }] as Record<string, string>[]) {
			const bad = await fetch(`${app.url}/api/articles/stream?since=-1`, { headers })
			expect(bad.status).toBe(400)
			expect(await bad.json()).toEqual({
				error: 'The stream position is not valid.',
				fields: { since: ['Use the whole-number change id from the page or the last event.'] },
			})
		}
	})

	it('forgets a stream as soon as its client leaves', async () => {
		await waitUntil(() => app.broker.size === 0)
		const client = open('')
		await client.opened
		await waitUntil(() => app.broker.size === 1)
		client.source.close()
		await waitUntil(() => app.broker.size === 0)
	})
})

describe('a client that stops reading', () => {
	it('is dropped at the buffer cap while the others keep receiving', async () => {
		// A Unix socket has small kernel buffers, so the cap is reached after a few hundred events.
		const dir = mkdtempSync(join(tmpdir(), 'canopy-socket-'))
		const socketPath = join(dir, 'http.sock')
		const app = await startTestApp({ socketPath, stream: { maxBufferedBytes: 16 * 1024 } })
		try {
			const connect = (onData: (chunk: string) => void) =>
				new Promise<import('node:http').IncomingMessage>((resolve) => {
					request(
						{ socketPath, path: `/api/articles/stream?since=${app.broker.lastId}` },
						(res) => {
							res.setEncoding('utf8')
							res.on('data', onData)
							resolve(res)
						},
					).end()
				})
			let healthyText = ''
			await connect((chunk) => {
				healthyText += chunk
			})
			const stuck = await connect(() => {})
			stuck.pause()
			await waitUntil(() => app.broker.size === 2)

			const long = 'Soil carbon, river health and the quiet work of restoration. '.repeat(4)
			let count = 0
			while (app.broker.size === 2 && count < 2_000) {
				await saveArticle(
					app.storage,
					{ title: 'A long running story', summary: long.slice(0, 290), body: `Edit ${count}` },
					'published',
				)
				count++
				// Let the healthy client (in this same process) read between writes, as a real one would.
				await new Promise((resolve) => setImmediate(resolve))
			}
			expect(app.broker.size).toBe(1)
			await waitUntil(() => parseSse(healthyText).events.length === count, 5_000)
			stuck.destroy()
		} finally {
			await app.close()
			rmSync(dir, { recursive: true, force: true })
		}
	})
})
