import { Link } from 'react-router'
import type { Route } from './+types/index'
import { servicesContext } from '#app/lib/context.server.ts'

export async function loader({ context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	return { articles: await storage.articles.count() }
}

export default function AdminHome({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<h1>Editor</h1>
			<p>
				The site holds {loaderData.articles} {loaderData.articles === 1 ? 'article' : 'articles'}.{' '}
				<Link to="/articles">See them as readers do</Link>.
			</p>
		</>
	)
}
