import { Outlet } from 'react-router'
import { requireAdminMiddleware } from '#app/features/auth/session.server.ts'
import type { Route } from './+types/admin-only'

// Settings, team, API keys and the live configuration: tests/integration/admin-access.test.ts walks the route table to
// prove an editor gets 403 from every page below this layout. React Router renders an error
// thrown by middleware with the root's ErrorBoundary (no loader below it has run), so the
// 403 page is there.
export const middleware: Route.MiddlewareFunction[] = [requireAdminMiddleware]

export default function AdminOnly() {
	return <Outlet />
}
