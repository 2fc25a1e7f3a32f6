// A whole-page cache for anonymous GETs of public pages. Every change on the feed (articles,
// settings) empties it, on every instance, because each instance's broker sees every change.
// The per-request CSP nonce is swapped in on the way out, so a cached page is still protected.
import type { ArticleBroker } from './live/broker.ts'

interface Entry {
	status: number
	headers: [string, string][]
	/** The page split where its nonce stood. */
	parts: string[]
}

const maxEntries = 500
const maxPageBytes = 512 * 1024

function cacheable(request: Request): boolean {
	return (
		request.method === 'GET' &&
		!request.headers.has('cookie') &&
		!request.headers.has('authorization') &&
		!new URL(request.url).pathname.startsWith('/admin')
	)
}

export function createPageCache(broker: ArticleBroker) {
	const entries = new Map<string, Entry>()
	let generation = 0
	broker.onChanges(() => {
		generation++
		entries.clear()
	})

	const keyOf = (request: Request) => {
		const url = new URL(request.url)
		return url.pathname + url.search
	}

	return {
		/** A cached response, or the generation to hand to store() once the page is rendered. */
		lookup(request: Request, nonce: string): Response | number {
			const entry = cacheable(request) ? entries.get(keyOf(request)) : undefined
			if (!entry) return generation
			return new Response(entry.parts.join(nonce), { status: entry.status, headers: entry.headers })
		},

		async store(
			request: Request,
			response: Response,
			nonce: string,
			renderedAt: number,
		): Promise<Response> {
			const type = response.headers.get('content-type') ?? ''
			if (
				!cacheable(request) ||
				response.status !== 200 ||
				!type.startsWith('text/html') ||
				response.headers.has('set-cookie') ||
				/no-store|private/.test(response.headers.get('cache-control') ?? '')
			) {
				return response
			}
			const body = await response.text()
			// A page rendered from data read before a change landed must not outlive it.
			if (renderedAt === generation && body.length <= maxPageBytes) {
				if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string)
				entries.set(keyOf(request), {
					status: response.status,
					headers: [...response.headers],
					parts: body.split(nonce),
				})
			}
			return new Response(body, { status: response.status, headers: response.headers })
		},
	}
}
