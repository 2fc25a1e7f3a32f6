import { isRouteErrorResponse, Link, Outlet, useRouteError } from 'react-router'
import type { Route } from './+types/admin-only'
import { requireAdminMiddleware } from '#app/features/auth/session.server.ts'

// Settings, team and API keys: tests/integration/admin-access.test.ts walks the route table to
// prove an editor gets 403 from every page below this layout.
export const middleware: Route.MiddlewareFunction[] = [requireAdminMiddleware]

export default function AdminOnly() {
	return <Outlet />
}

export function ErrorBoundary() {
	const error = useRouteError()
	const forbidden = isRouteErrorResponse(error) && error.status === 403
	return (
		<>
			<h1>{forbidden ? 'For admins only' : 'This page could not load'}</h1>
			<p>
				{forbidden
					? 'Your account is an editor account. Ask an admin if you need something changed here.'
					: 'Please try again in a moment.'}{' '}
				<Link to="/admin">Go to the editor's home</Link>.
			</p>
		</>
	)
}
