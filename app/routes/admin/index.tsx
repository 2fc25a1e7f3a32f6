import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Link } from 'react-router'
import { listEditorArticles } from '#app/features/articles/editor.server.ts'
import { editorContext } from '#app/features/auth/session.server.ts'
import { readPushResults } from '#app/features/push/push-results.server.ts'
import { subscriberText } from '#app/features/push/push-results.tsx'
import { servicesContext } from '#app/lib/context.server.ts'
import type { Route } from './+types/index'

export async function loader({ context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const count = async (status: string) =>
		(await listEditorArticles(storage, { status, page: '1' })).total
	const [drafts, scheduled, published, push] = await Promise.all([
		count('draft'),
		count('scheduled'),
		count('published'),
		readPushResults(storage, []),
	])
	const { subscribers } = push
	return { drafts, scheduled, published, subscribers, name: context.get(editorContext).name }
}

export default function AdminHome({ loaderData }: Route.ComponentProps) {
	const { drafts, scheduled, published, subscribers, name } = loaderData
	const { i18n } = useLingui()
	return (
		<>
			<h1>
				<Trans>Welcome, {name}</Trans>
			</h1>
			<ul className="overview">
				<li>
					<Link to="/admin/articles?status=published">
						<Plural value={published} one="# published article" other="# published articles" />
					</Link>
				</li>
				<li>
					<Link to="/admin/articles?status=scheduled">
						<Plural value={scheduled} one="# scheduled article" other="# scheduled articles" />
					</Link>
				</li>
				<li>
					<Link to="/admin/articles?status=draft">
						<Plural value={drafts} one="# draft" other="# drafts" />
					</Link>
				</li>
				<li>{subscriberText(subscribers, i18n)}</li>
			</ul>
			<p className="dashboard-actions">
				<Link className="button" to="/admin/articles/new">
					<Trans>Write a new article</Trans>
				</Link>{' '}
				<Link to="/articles">
					<Trans>See the articles as readers do</Trans>
				</Link>
			</p>
		</>
	)
}
