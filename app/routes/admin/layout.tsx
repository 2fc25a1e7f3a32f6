import { Form, Link, Outlet } from 'react-router'
import type { Route } from './+types/layout'
import { requireEditor } from '#app/features/auth/session.server.ts'

// Every page of the editor area sits under this layout: nothing in it renders for anyone not
// signed in (tests/integration/admin-access.test.ts walks the route table to prove it).
export async function loader({ request, context }: Route.LoaderArgs) {
	return { editor: await requireEditor(context, request) }
}

export function meta() {
	return [{ title: 'Editor · Canopy' }, { name: 'robots', content: 'noindex' }]
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
	const { editor } = loaderData
	return (
		<div className="page admin">
			<div className="admin-bar">
				<p>
					Signed in as <strong>{editor.name}</strong> ({editor.role})
				</p>
				<Form method="post" action="/admin/sign-out">
					<button type="submit">Sign out</button>
				</Form>
			</div>
			<Outlet />
		</div>
	)
}

export function ErrorBoundary() {
	return (
		<div className="page narrow">
			<h1>The editor area could not load</h1>
			<p>
				Please try again in a moment, or <Link to="/admin/sign-in">sign in again</Link>.
			</p>
		</div>
	)
}
