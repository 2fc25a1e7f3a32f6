// Renders as Canopy's own entry does (app/entry.server.tsx, decision 043): to a web stream,
// handed to the Response as it is.
import { renderToReadableStream } from 'react-dom/server'
import type { EntryContext } from 'react-router'
import { ServerRouter } from 'react-router'

export default async function handleRequest(
	request: Request,
	status: number,
	headers: Headers,
	context: EntryContext,
) {
	const body = await renderToReadableStream(<ServerRouter context={context} url={request.url} />)
	headers.set('Content-Type', 'text/html; charset=utf-8')
	return new Response(body, { headers, status })
}
