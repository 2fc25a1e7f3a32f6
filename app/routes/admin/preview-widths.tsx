// The editor's preview of an article, at a phone's width or the page's whole width: the reader's page
// (preview.tsx) in a frame of that width, so the page's own layout for that width is what shows.
// The widths are links (?width=phone), so the choice works without JavaScript and is kept on
// reload.
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Link } from 'react-router'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { Route } from './+types/preview-widths'

const widths = {
	phone: { label: msg`Phone (390 px)` },
	desktop: { label: msg`Wide screen` },
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

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	const title = loaderData?.title
	return [
		{
			title: title
				? i18n._(msg`Preview: ${title} · Canopy`)
				: i18n._(msg`Preview: not found · Canopy`),
		},
		{ name: 'robots', content: 'noindex' },
	]
}

export default function ArticlePreview({ loaderData }: Route.ComponentProps) {
	const { id, title, width } = loaderData
	const { t, i18n } = useLingui()
	return (
		<>
			<p>
				<Link to={`/admin/articles/${id}`}>
					<Trans>Back to the editor</Trans>
				</Link>
			</p>
			<h1>
				<Trans>Preview: {title}</Trans>
			</h1>
			<nav aria-label={t`Preview width`} className="filters">
				<ul>
					{(Object.keys(widths) as Width[]).map((each) => (
						<li key={each}>
							<Link
								to={`?width=${each}`}
								replace
								aria-current={each === width ? 'page' : undefined}
							>
								{i18n._(widths[each].label)}
							</Link>
						</li>
					))}
				</ul>
			</nav>
			<div className="preview-stage">
				<iframe
					className={`preview-frame ${width}`}
					src={`/admin/preview/${id}`}
					title={
						width === 'phone'
							? t`${title}, as readers will see it on a phone`
							: t`${title}, as readers will see it on a wide screen`
					}
				/>
			</div>
		</>
	)
}
