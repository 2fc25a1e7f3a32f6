import { Form, Link, NavLink, Outlet } from 'react-router'
import type { Route } from './+types/layout'
import { editorContext, requireEditorMiddleware } from '#app/features/auth/session.server.ts'
import adminStyles from '#app/styles/admin.css?url'

// The editor area's own stylesheet: never linked from a public page.
export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }]

// Every page of the editor area sits under this layout, and its middleware turns away anyone not
// signed in before any loader or action runs (tests/integration/admin-access.test.ts walks the
// route table to prove it).
export const middleware: Route.MiddlewareFunction[] = [requireEditorMiddleware]

export function loader({ context }: Route.LoaderArgs) {
	return { editor: context.get(editorContext) }
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
					Signed in as <strong>{editor.name}</strong> ({editor.role}) ·{' '}
					<Link to="/admin/account">Your account</Link>
				</p>
				<Form method="post" action="/admin/sign-out">
					<button type="submit">Sign out</button>
				</Form>
			</div>
			<nav aria-label="Editor area" className="admin-nav">
				<ul>
					<li>
						<NavLink to="/admin" end>
							Overview
						</NavLink>
					</li>
					<li>
						<NavLink to="/admin/articles">Articles</NavLink>
					</li>
					{editor.role === 'admin' ? (
						<>
							<li>
								<NavLink to="/admin/settings">Site settings</NavLink>
							</li>
							<li>
								<NavLink to="/admin/team">Team</NavLink>
							</li>
							<li>
								<NavLink to="/admin/api-keys">API keys</NavLink>
							</li>
						</>
					) : null}
				</ul>
			</nav>
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
