import { msg } from '@lingui/core/macro'
import { Plural, Trans } from '@lingui/react/macro'
import { Link } from 'react-router'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { keepDataWhenNoticeLeaves, useArrivalNotice } from '#app/lib/arrival-notice.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { Route } from './+types/tags'

// Every tag, with how many published articles show it; each opens its page to rename, describe,
// merge or delete it. Tags are made by naming them on an article.

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Tags · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

// The arrival's notice leaving the address reads nothing again (arrival-notice.ts).
export const shouldRevalidate = keepDataWhenNoticeLeaves

export async function loader({ context }: Route.LoaderArgs) {
	return { tags: await context.get(servicesContext).storage.tags.list() }
}

export default function Tags({ loaderData }: Route.ComponentProps) {
	const { tags } = loaderData
	const deleted = useArrivalNotice('deleted')
	return (
		<>
			<h1>
				<Trans>Tags</Trans>
			</h1>
			{deleted ? (
				<p role="status" className="notice">
					<Trans>The tag “{deleted}” is deleted: its articles no longer show it.</Trans>
				</p>
			) : null}
			<p>
				<Trans>
					A tag is made when an article first names it. Here you can give it a better name, an
					address, a description and a cover for its page, or merge two tags into one.
				</Trans>
			</p>
			{tags.length === 0 ? (
				<p>
					<Trans>No tags yet. Add some to an article, separated by commas.</Trans>
				</p>
			) : (
				<ul className="term-list">
					{tags.map(({ id, name, slug, articles }) => (
						<li key={id}>
							<Link to={`/admin/tags/${id}`}>{name}</Link>{' '}
							<span className="hint">
								{publicPath('tag', slug)} ·{' '}
								<Plural value={articles} one="# published article" other="# published articles" />
							</span>
						</li>
					))}
				</ul>
			)}
		</>
	)
}
