// Every URL the site answers, walked from its route tables (React Router's, from the build, and
// the server's own endpoints), so a route added later is fuzzed too: wrong methods, missing and
// wrong content types, broken JSON and multipart, oversized, deeply nested, NUL and invalid UTF-8
// bodies, hostile query strings, as a visitor, a signed-in admin and an API key. Nothing may
// answer 5xx or log an error, and the server answers its health check after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeKey, makeUser, signIn } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { routeTable } from '#tests/fixtures/route-table.ts'
import { databases } from '#tests/fixtures/storage.ts'

/** Every route of the build, as a path with its parameters filled in. */
async function pageRoutes(): Promise<string[]> {
	return (await routeTable()).map(
		({ path }) =>
			`/${path
				.replace(/:slug/g, 'what-we-throw-away')
				.replace(/:[^/]+/g, '1')
				.replace('*', 'no-such-page')}`,
	)
}

const deepJson = `${'['.repeat(50_000)}${']'.repeat(50_000)}`
/** The bodies sent with each mutation: [name, Content-Type or null, body]. */
const bodies: [string, string | null, BodyInit][] = [
	['no body', null, ''],
	['text', 'text/plain', 'hello'],
	['no content type', null, 'a=1'],
	['broken JSON', 'application/json', '{"title": "x", '],
	['JSON of the wrong shape', 'application/json', '[1, "two", null, {"version": "three"}]'],
	['deeply nested JSON', 'application/json', deepJson],
	['broken multipart', 'multipart/form-data; boundary=canopy', '--canopy\r\nContent-Disp'],
	['multipart without a boundary', 'multipart/form-data', 'x'],
	['broken form encoding', 'application/x-www-form-urlencoded', 'a=%ZZ&&=%&b=%E0%A4%A'],
	['NUL bytes', 'application/x-www-form-urlencoded', 'title=a\0b&body=\0\0'],
	['invalid UTF-8', 'application/json', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d])],
	['an image type with text', 'image/png', 'not an image'],
]
const readsBearer = (path: string) => path.startsWith('/api') || path === '/metrics'
const otherMethodBodies = new Set(['no body', 'broken JSON', 'broken multipart', 'NUL bytes'])
const queries = ['?q=%', `?page=${'9'.repeat(400)}`, '?since=-1&q=%00', `?${'a'.repeat(2_000)}=1`]

describe.each(databases)('every route, fuzzed: $name', ({ create }) => {
	let app: TestApp
	const callers: Record<string, Record<string, string>> = {}
	let paths: string[] = []

	beforeAll(async () => {
		app = await startTestApp({ database: create, trustProxy: '127.0.0.1' })
		const adminId = await makeUser(app, 'ada@example.org', 'admin')
		callers.visitor = {}
		callers.admin = { Cookie: await signIn(app, 'ada@example.org') }
		callers.key = { Authorization: `Bearer ${await makeKey(app, adminId)}` }
		const endpoints = app.endpoints.map((endpoint) => endpoint.path.replace('/*', '/x'))
		paths = [...new Set([...(await pageRoutes()), ...endpoints])]
	})
	afterAll(() => app?.close())

	async function send(
		path: string,
		method: string,
		caller: Record<string, string>,
		contentType: string | null,
		body: BodyInit | undefined,
	) {
		const controller = new AbortController()
		// Streams answer at once and stay open: the status is what is looked at.
		const response = await fetch(`${app.url}${path}`, {
			method,
			redirect: 'manual',
			signal: controller.signal,
			headers: {
				Origin: app.url,
				// A new address per request: the rate limits answer 429, which is fine, but they
				// should not hide what a route does.
				'X-Forwarded-For': `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
				...(contentType ? { 'Content-Type': contentType } : {}),
				...caller,
			},
			body,
		})
		const status = response.status
		controller.abort()
		return status
	}

	it('answers no request with a 5xx, logs no error, and stays healthy', async () => {
		expect(paths).toContain('/admin/sign-in')
		expect(paths).toContain('/api/collect')
		const failures: string[] = []
		let sent = 0
		const jobs: (() => Promise<void>)[] = []
		for (const path of paths)
			for (const [callerName, caller] of Object.entries(callers)) {
				// A bearer token is read under /api and at /metrics only: elsewhere its caller is a
				// visitor whose request skips the page cache, as the visitor's hostile queries do.
				if (callerName === 'key' && !readsBearer(path)) continue
				const record = async (
					what: string,
					method: string,
					target: string,
					type: string | null,
					body?: BodyInit,
				) => {
					const status = await send(target, method, caller, type, body).catch(
						(error: Error) => -1 * (error.name === 'AbortError' ? 0 : 1),
					)
					sent++
					if (status >= 500 || status === -1)
						failures.push(`${method} ${target} as ${callerName}, ${what}: ${status}`)
				}
				for (const method of ['GET', 'HEAD', 'OPTIONS', 'PATCH'])
					jobs.push(() => record('no body', method, path, null))
				for (const query of queries)
					jobs.push(() => record('query', 'GET', `${path}${query}`, null))
				for (const [name, type, body] of bodies)
					jobs.push(() => record(name, 'POST', path, type, body))
				// A route reads a body the same way whatever the method: PUT and DELETE get the
				// bodies that fail in different places (the parser, and the database for NUL bytes).
				for (const method of ['PUT', 'DELETE'])
					for (const [name, type, body] of bodies.filter(([name]) => otherMethodBodies.has(name)))
						jobs.push(() => record(name, method, path, type, body))
			}
		// A few at a time, as many browsers would.
		const running = Array.from({ length: 8 }, async () => {
			for (let job = jobs.shift(); job; job = jobs.shift()) await job()
		})
		await Promise.all(running)
		expect(failures).toEqual([])
		const bearerPaths = paths.filter(readsBearer).length
		expect(bearerPaths).toBeGreaterThan(5)
		expect(sent).toBe((paths.length * 2 + bearerPaths) * 28)
		expect(app.errors()).toEqual([])
		expect((await fetch(`${app.url}/healthz`)).status).toBe(200)
		expect((await fetch(`${app.url}/articles`)).status).toBe(200)
	}, 180_000)

	it('refuses a body over every cap with 413, never reading it all', async () => {
		const oversized = new Uint8Array(7 * 1024 * 1024)
		const failures: string[] = []
		for (const path of paths) {
			const status = await send(path, 'POST', callers.admin ?? {}, 'application/json', oversized)
			if (status >= 500) failures.push(`POST ${path}: ${status}`)
		}
		expect(failures).toEqual([])
		expect(app.errors()).toEqual([])
	}, 120_000)
})
