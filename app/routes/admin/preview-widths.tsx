// The editor's preview of an article, at a phone's width or the page's whole width: the reader's page
// (preview.tsx) in a frame of that width, so the page's own layout for that width is what shows.
// The widths are links (?width=phone), so the choice works without JavaScript and is kept on
// reload.
import { data, Link } from 'react-router'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/preview-widths'

const widths = {
	phone: { label: 'Phone (390 px)' },
	desktop: { label: 'Wide screen' },
} as const

type Width = keyof typeof widths

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const id = Number(params.id)
	const article =
		Number.isSafeInteger(id) && id > 0 ? await storage.articles.findById(id) : undefined
	if (!article) throw data(null, { status: 404 })
	const asked = new URL(request.url).searchParams.get('width')
	const width: Width = asked === 'phone' ? 'phone' : 'desktop'
	return { id, title: article.title, width }
}

export function meta({ loaderData }: Route.MetaArgs) {
	return [
		{ title: `Preview: ${loaderData?.title ?? 'not found'} · Canopy` },
		{ name: 'robots', content: 'noindex' },
	]
}

export default function ArticlePreview({ loaderData }: Route.ComponentProps) {
	const { id, title, width } = loaderData
	return (
		<>
			<p>
				<Link to={`/admin/articles/${id}`}>Back to the editor</Link>
			</p>
			<h1>Preview: {title}</h1>
			<nav aria-label="Preview width" className="filters">
				<ul>
					{(Object.keys(widths) as Width[]).map((each) => (
						<li key={each}>
							<Link
								to={`?width=${each}`}
								replace
								aria-current={each === width ? 'page' : undefined}
							>
								{widths[each].label}
							</Link>
						</li>
					))}
				</ul>
			</nav>
			<div className="preview-stage">
				<iframe
					className={`preview-frame ${width}`}
					src={`/admin/preview/${id}`}
					title={`${title}, as readers will see it on a ${width === 'phone' ? 'phone' : 'wide screen'}`}
				/>
			</div>
		</>
	)
}
