// GET /api/config: the values this visitor gets (docs/decisions/013-remote-config.md), answered
// by the Hono server (server/app.ts) before React Router. A browser asks with If-None-Match and
// gets 304 while its copy is current.

import type { ConfigService } from './config.server.ts'
import { readHeaders, valuesTag } from './evaluate.server.ts'

const varyOn = 'Cookie, Accept-Language, User-Agent, Sec-CH-UA-Mobile'

/** Whether an If-None-Match header names this entity tag (weak or strong, or `*`). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
	if (!ifNoneMatch) return false
	return ifNoneMatch
		.split(',')
		.map((tag) => tag.trim().replace(/^W\//, ''))
		.some((tag) => tag === etag || tag === '*')
}

export function createConfigEndpoint(config: ConfigService) {
	return async (request: Request): Promise<Response> => {
		// From the document in memory: this answers even while the database is away.
		const evaluated = await config.forRequest(readHeaders(request.headers))
		const etag = `"${valuesTag(evaluated.version, evaluated.values)}"`
		const headers = { ETag: etag, 'Cache-Control': 'private, no-cache', Vary: varyOn }
		if (matches(request.headers.get('if-none-match'), etag))
			return new Response(null, { status: 304, headers })
		return Response.json(evaluated, { headers })
	}
}
