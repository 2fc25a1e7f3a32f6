// /opensearch.xml: tells browsers the site can be searched, so a reader can search it from the
// address bar (OpenSearch 1.1 description).
import { getSiteSettings } from '#app/features/site/site-settings.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/opensearch'

const xmlText = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)

export async function loader({ context }: Route.LoaderArgs) {
	const { storage, siteUrl } = context.get(servicesContext)
	const site = await getSiteSettings(storage)
	const name = xmlText(site.title.slice(0, 16))
	const body = `<?xml version="1.0" encoding="UTF-8"?>
<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
  <ShortName>${name}</ShortName>
  <Description>${xmlText(`Search ${site.title}`)}</Description>
  <InputEncoding>UTF-8</InputEncoding>
  <Url type="text/html" method="get" template="${xmlText(siteUrl)}/search?q={searchTerms}"/>
</OpenSearchDescription>
`
	return new Response(body, {
		headers: {
			'Content-Type': 'application/opensearchdescription+xml; charset=utf-8',
			'Cache-Control': 'public, max-age=3600',
		},
	})
}
