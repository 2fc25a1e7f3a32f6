// The admin API's OpenAPI description against the API itself, over real HTTP: the document is
// valid OpenAPI 3.1, every /api/admin route of the route table is in it, and every answer the
// handlers give (each operation, its refusals too) is one it describes, checked with a JSON
// Schema validator against the document, not against the zod schemas it was made from.
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ApiCall, callApi, makeKey, makeUser } from '#tests/fixtures/admin-api.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { pngImage, svgImage } from '#tests/fixtures/images.ts'
import { routeTable } from '#tests/fixtures/route-table.ts'

interface Operation {
	responses: Record<string, { content?: Record<string, { schema: object }> }>
}
type Description = {
	openapi: string
	paths: Record<string, Record<string, Operation>>
	components: { schemas: Record<string, object> }
}

let app: TestApp
let key: string
let description: Description
let ajv: Ajv2020
const checked = new Set<string>()

beforeAll(async () => {
	app = await startTestApp({ seed: false })
	key = await makeKey(app, await makeUser(app, 'ada@example.org', 'admin', 'Ada Admin'))
	const answer = await callApi(app, '/api/admin/openapi.json', { key })
	expect(answer.status).toBe(200)
	description = (await answer.json()) as Description
	ajv = new Ajv2020({ strict: false, allErrors: true })
	addFormats.default(ajv)
	ajv.addSchema({ $id: 'canopy-openapi', components: description.components })
})
afterAll(async () => {
	await app?.close()
})

/** Calls the API and checks the answer against what the description says of that status. */
async function call(
	template: string,
	method: string,
	path: string,
	init: ApiCall & { as?: 'nobody'; bytes?: Uint8Array } = {},
): Promise<{ status: number; body: Record<string, unknown> | null }> {
	const response = init.bytes
		? await fetch(`${app.url}${path}`, {
				method: method.toUpperCase(),
				headers: { Authorization: `Bearer ${key}`, ...init.headers },
				body: Buffer.from(init.bytes),
			})
		: await callApi(app, path, init.as === 'nobody' ? null : { key }, {
				...init,
				method: method.toUpperCase(),
			})
	const operation = description.paths[template]?.[method]
	expect(operation, `${method} ${template} is described`).toBeDefined()
	const described = operation?.responses[String(response.status)]
	expect(described, `${method} ${template} answering ${response.status} is described`).toBeDefined()
	checked.add(`${method} ${template} ${response.status}`)
	const schema = described?.content?.['application/json']?.schema
	if (!schema) {
		expect(await response.text()).toBe('')
		return { status: response.status, body: null }
	}
	const body = (await response.json()) as Record<string, unknown>
	// The document's references, read in the document.
	const check = ajv.compile(
		JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"canopy-openapi#/components/')),
	)
	const valid = check(body)
	expect(check.errors ?? [], `${method} ${template} ${response.status}`).toEqual([])
	expect(valid).toBe(true)
	return { status: response.status, body }
}

describe('the admin API and its OpenAPI description', () => {
	it('is valid OpenAPI 3.1', async () => {
		expect(description.openapi).toBe('3.1.0')
		const validator = new Validator()
		const result = await validator.validate(description)
		expect(validator.version).toBe('3.1')
		expect(result.errors ?? []).toEqual([])
		expect(result.valid).toBe(true)
	})

	it('describes every /api/admin route of the route table', async () => {
		const routes = (await routeTable())
			.map((route) => route.path)
			.filter((path) => path.startsWith('api/admin/') && !path.endsWith('*'))
			.filter((path) => path !== 'api/admin/openapi.json')
			.map((path) => `/${path.replace(/:(\w+)/g, '{$1}')}`)
		expect(routes.length).toBeGreaterThanOrEqual(5)
		for (const path of routes) expect(Object.keys(description.paths)).toContain(path)
	})

	it('answers every operation, and its refusals, as described', async () => {
		const list = '/api/admin/articles'
		const one = '/api/admin/articles/{id}'
		await call(list, 'get', `${list}?status=draft&q=peat`)
		await call(list, 'get', list, { as: 'nobody' })
		await call(list, 'post', list, { body: { title: '' } })
		await call(list, 'post', list, { body: 'not json', headers: { 'Content-Type': 'text/plain' } })
		const made = await call(list, 'post', list, {
			body: { title: 'Peat', body: 'Peat holds carbon.', tags: ['Wetlands'] },
			headers: { 'Idempotency-Key': 'contract-1' },
		})
		await call(list, 'post', list, {
			body: { title: 'Other', body: 'Text.' },
			headers: { 'Idempotency-Key': 'contract-1' },
		})
		const versionOf = (answer: { body: Record<string, unknown> | null }) =>
			(answer.body?.article as { version: number } | undefined)?.version ?? 0
		const article = made.body?.article as { id: number; version: number }
		const at = `${list}/${article.id}`
		await call(one, 'get', at)
		await call(one, 'get', `${list}/999999`)
		const updated = await call(one, 'put', at, {
			body: { title: 'Peat bogs', body: 'Peat holds carbon.', version: article.version },
		})
		await call(one, 'put', at, { body: { title: 'Stale', body: 'x', version: article.version } })
		await call(one, 'put', at, { body: { title: '', body: 'x', version: 2 } })
		const version = versionOf(updated)
		const published = await call(`${one}/publish`, 'post', `${at}/publish`, { body: { version } })
		await call(`${one}/publish`, 'post', `${at}/publish`, { body: {} })
		const again = versionOf(published)
		const unpublished = await call(`${one}/unpublish`, 'post', `${at}/unpublish`, {
			body: { version: again },
		})
		await call(`${one}/unpublish`, 'post', `${list}/999999/unpublish`, { body: { version: 1 } })
		await call(one, 'delete', `${at}?version=1`)
		const last = versionOf(unpublished)
		await call(one, 'delete', `${at}?version=${last}`)
		await call(one, 'delete', at)

		const uploads = '/api/admin/uploads'
		await call(uploads, 'post', uploads, {
			bytes: pngImage(4, 4),
			headers: { 'Content-Type': 'image/png' },
		})
		await call(uploads, 'post', uploads, {
			bytes: svgImage(),
			headers: { 'Content-Type': 'image/svg+xml' },
		})
		// Each operation's success and its main refusals were met.
		for (const seen of [
			'get /api/admin/articles 200',
			'get /api/admin/articles 401',
			'post /api/admin/articles 201',
			'post /api/admin/articles 400',
			'post /api/admin/articles 415',
			'post /api/admin/articles 422',
			'get /api/admin/articles/{id} 404',
			'put /api/admin/articles/{id} 200',
			'put /api/admin/articles/{id} 409',
			'post /api/admin/articles/{id}/publish 200',
			'post /api/admin/articles/{id}/unpublish 200',
			'delete /api/admin/articles/{id} 204',
			'delete /api/admin/articles/{id} 409',
			'post /api/admin/uploads 201',
			'post /api/admin/uploads 415',
		])
			expect([...checked]).toContain(seen)
	})
})
