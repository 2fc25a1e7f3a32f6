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

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

export default function AdminHome({ loaderData }: Route.ComponentProps) {
	const { drafts, scheduled, published, subscribers, name } = loaderData
	return (
		<>
			<h1>Welcome, {name}</h1>
			<ul className="overview">
				<li>
					<Link to="/admin/articles?status=published">
						{plural(published, 'published article', 'published articles')}
					</Link>
				</li>
				<li>
					<Link to="/admin/articles?status=scheduled">
						{plural(scheduled, 'scheduled article', 'scheduled articles')}
					</Link>
				</li>
				<li>
					<Link to="/admin/articles?status=draft">{plural(drafts, 'draft', 'drafts')}</Link>
				</li>
				<li>{subscriberText(subscribers)}</li>
			</ul>
			<p>
				<Link className="button" to="/admin/articles/new">
					Write a new article
				</Link>{' '}
				<Link to="/articles">See the articles as readers do</Link>
			</p>
		</>
	)
}
