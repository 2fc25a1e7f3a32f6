import type { ServerBuild } from 'react-router'
import { describe, expect, it } from 'vitest'
import { createRouteLabeller, pageOfDataRequest } from './route-label.ts'

// The shape of a build's manifest: a flat map of routes naming their parents.
const build = {
	routes: {
		root: { id: 'root', path: '' },
		'routes/home': { id: 'routes/home', parentId: 'root', index: true },
		'routes/articles': { id: 'routes/articles', parentId: 'root', path: 'articles' },
		'routes/article': { id: 'routes/article', parentId: 'root', path: 'articles/:slug' },
		'routes/admin': { id: 'routes/admin', parentId: 'root', path: 'admin' },
		'routes/admin-edit': {
			id: 'routes/admin-edit',
			parentId: 'routes/admin',
			path: 'articles/:id',
		},
		'routes/page': { id: 'routes/page', parentId: 'root', path: ':slug' },
		'routes/catch-all': { id: 'routes/catch-all', parentId: 'root', path: '*' },
	},
} as unknown as ServerBuild

describe('the metrics route label', () => {
	it('names the route pattern, never the address', () => {
		const label = createRouteLabeller(build)
		expect(label('/')).toBe('/')
		expect(label('/articles')).toBe('/articles')
		expect(label('/articles/peatlands')).toBe('/articles/:slug')
		expect(label('/articles/森林')).toBe('/articles/:slug')
		expect(label('/admin/articles/12')).toBe('/admin/articles/:id')
		expect(label('/about')).toBe('/:slug')
		expect(label('/a/b/c')).toBe('/*')
	})

	it("gives a client-side navigation's data request its page's label", () => {
		const label = createRouteLabeller(build)
		expect(label('/articles/peatlands.data')).toBe('/articles/:slug')
		expect(label('/_root.data')).toBe('/')
		// The body limits read the same page (server/app.ts): a hydrated form posts there.
		expect(pageOfDataRequest('/admin/move-in.data')).toBe('/admin/move-in')
		expect(pageOfDataRequest('/_root.data')).toBe('/')
		expect(pageOfDataRequest('/media/x.webp')).toBe('/media/x.webp')
	})

	it('makes as many labels as routes from thousands of addresses', () => {
		const label = createRouteLabeller(build)
		const labels = new Set<string>()
		for (let i = 0; i < 12_000; i++) labels.add(label(`/articles/post-${i}`))
		expect([...labels]).toEqual(['/articles/:slug'])
	})
})
