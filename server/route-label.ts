// The route a request was answered by, as a pattern (/articles/:slug), for the request metrics'
// `route` label (docs/decisions/035-metrics.md): a label per route, never per address, so
// thousands of articles make one series. React Router's routes are matched once per distinct path
// and remembered (a bounded map), so a page read again costs a lookup.
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'

/** Paths remembered; past this the oldest is forgotten. */
const remembered = 5_000

export const unmatchedRoute = '(unmatched)'

/** React Router's route tree from the build's flat manifest. */
function routeTree(build: ServerBuild): RouteObject[] {
	const children = new Map<string | undefined, RouteObject[]>()
	for (const route of Object.values(build.routes)) {
		if (!route) continue
		const node = (
			route.index
				? { id: route.id, index: true, path: route.path }
				: { id: route.id, path: route.path, children: [] }
		) as RouteObject
		const siblings = children.get(route.parentId) ?? []
		siblings.push(node)
		children.set(route.parentId, siblings)
	}
	const attach = (nodes: RouteObject[]): RouteObject[] => {
		for (const node of nodes) if (!node.index) node.children = attach(children.get(node.id) ?? [])
		return nodes
	}
	return attach(children.get(undefined) ?? [])
}

/**
 * The page a client-side navigation's data request is for: `/articles/x.data` → `/articles/x`,
 * `/_root.data` → `/`; any other path as it is. A hydrated page's form posts there too.
 */
export function pageOfDataRequest(path: string): string {
	if (path === '/_root.data') return '/'
	return path.endsWith('.data') ? path.slice(0, -'.data'.length) : path
}

export function createRouteLabeller(build: ServerBuild): (path: string) => string {
	const tree = routeTree(build)
	const known = new Map<string, string>()
	return (asked) => {
		const path = pageOfDataRequest(asked)
		const found = known.get(path)
		if (found !== undefined) return found
		const matches = matchRoutes(tree, path) ?? []
		const pattern = matches
			.map((match) => match.route.path)
			.filter((part): part is string => Boolean(part))
			.join('/')
			.replace(/\/+/g, '/')
		// The site's catch-all (any other address goes home) is one route, not one per address.
		const label = matches.length === 0 ? unmatchedRoute : `/${pattern.replace(/^\//, '')}`
		if (known.size >= remembered) known.delete(known.keys().next().value as string)
		known.set(path, label)
		return label
	}
}
