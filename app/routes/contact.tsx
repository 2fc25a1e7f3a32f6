import type { Route } from './+types/contact'
import { rootData } from '#app/lib/root-data.ts'
import { absoluteUrl, pageMeta } from '#app/lib/seo.ts'

export function meta({ matches }: Route.MetaArgs) {
	const { site, siteUrl } = rootData(matches)
	return pageMeta({
		title: 'Contact',
		description: `How to reach the people behind ${site.title}.`,
		url: absoluteUrl(siteUrl, '/contact'),
		siteTitle: site.title,
	})
}

export default function Contact({ matches }: Route.ComponentProps) {
	const { site } = rootData(matches)
	return (
		<div className="page narrow contact">
			<h1>Contact</h1>
			<p>{site.contactIntro}</p>
			<h2>Email</h2>
			<p>
				<a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>
			</p>
			<h2>Post</h2>
			<address className="address">{site.contactAddress}</address>
		</div>
	)
}
