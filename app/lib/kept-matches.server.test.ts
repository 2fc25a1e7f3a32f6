import { createStaticHandler, createStaticRouter } from 'react-router'
import { describe, expect, test } from 'vitest'
import { keepMatches } from './kept-matches.server.ts'

const routes = [
	{
		id: 'root',
		path: '/',
		children: [
			{ id: 'home', index: true },
			{ id: 'tag', path: 'tags/:slug' },
			{ id: 'page', path: ':slug' },
		],
	},
]

async function contextFor(handler: ReturnType<typeof createStaticHandler>, path: string) {
	const context = await handler.query(new Request(`http://canopy.test${path}`))
	if (context instanceof Response) throw new Error(`${path} answered ${context.status}`)
	return context
}

const ids = (matches: { route: { id: string } }[] | null) => matches?.map((m) => m.route.id)

describe('keepMatches', () => {
	test("React Router still gives each render its handler's matcher as _match", async () => {
		// The saving rests on this unpublished field: when a release renames it, this fails.
		const context = await contextFor(createStaticHandler(routes), '/tags/soil')
		expect(typeof (context as { _match?: unknown })._match).toBe('function')
	})

	test('the page router matches ancestor addresses as before, each worked out once', async () => {
		const handler = createStaticHandler(routes)
		const first = await contextFor(handler, '/tags/soil')
		const underlying = (first as unknown as { _match: (location: unknown) => unknown })._match
		let calls = 0
		;(first as unknown as { _match: unknown })._match = (location: unknown) => {
			calls++
			return underlying(location)
		}
		keepMatches(first as { _match?: unknown })
		const router = createStaticRouter(handler.dataRoutes, first)
		expect(ids(router.match('/'))).toEqual(['root', 'home'])
		expect(ids(router.match('/tags'))).toEqual(['root', 'page'])
		expect(ids(router.match('/tags'))).toEqual(['root', 'page'])
		expect(ids(router.match('/'))).toEqual(['root', 'home'])
		expect(calls).toBe(2)
		// A location that is not a plain address is matched afresh each time.
		expect(ids(router.match({ pathname: '/tags/peat' } as never))).toEqual(['root', 'tag'])
		expect(calls).toBe(3)
	})

	test('the next render of the same build reuses what the first one worked out', async () => {
		const handler = createStaticHandler(routes)
		const first = await contextFor(handler, '/tags/soil')
		keepMatches(first as { _match?: unknown })
		const second = await contextFor(handler, '/about')
		keepMatches(second as { _match?: unknown })
		expect((second as { _match?: unknown })._match).toBe((first as { _match?: unknown })._match)
		// Another build (another handler) has matches of its own.
		const other = await contextFor(createStaticHandler(routes), '/about')
		keepMatches(other as { _match?: unknown })
		expect((other as { _match?: unknown })._match).not.toBe((first as { _match?: unknown })._match)
	})

	test('a context without the field renders as before', () => {
		const context: { _match?: unknown } = {}
		keepMatches(context)
		expect(context._match).toBeUndefined()
	})
})
