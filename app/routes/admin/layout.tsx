import { useEffect, useState } from 'react'
import {
	Form,
	Link,
	NavLink,
	Outlet,
	useFetcher,
	useLocation,
	useRevalidator,
	useRouteError,
} from 'react-router'
import { DatabaseUnavailable, isDatabaseOutage } from '#app/components/ui/database-unavailable.tsx'
import { editorContext, requireEditorMiddleware } from '#app/features/auth/session.server.ts'
import { useInboxEvents } from '#app/features/contact/use-inbox-events.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import adminStyles from '#app/styles/admin.css?url'
import type { Route } from './+types/layout'
import type { loader as inboxLoader } from './messages.tsx'

// The editor area's own stylesheet: never linked from a public page.
export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }]

// Every page of the editor area sits under this layout, and its middleware turns away anyone not
// signed in before any loader or action runs (tests/integration/admin-access.test.ts walks the
// route table to prove it).
export const middleware: Route.MiddlewareFunction[] = [requireEditorMiddleware]

export async function loader({ context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	// The feed position first: a message arriving after it reaches the page through the stream.
	const changeId = await storage.changes.latestId()
	const unread = await storage.messages.unreadCount()
	return { editor: context.get(editorContext), unread, changeId }
}

/**
 * The unread count, kept current as messages come in. The inbox list reads itself again; other
 * pages only refresh the count, so an article being written is never reloaded under its author.
 */
function useUnreadCount(loaded: { unread: number; changeId: number }): number {
	const [unread, setUnread] = useState(loaded.unread)
	const fetcher = useFetcher<typeof inboxLoader>()
	const revalidator = useRevalidator()
	const { pathname } = useLocation()
	// Whichever was read last wins: the page's own data, or the count fetched after an event.
	useEffect(() => setUnread(loaded.unread), [loaded])
	useEffect(() => {
		if (fetcher.data) setUnread(fetcher.data.unread)
	}, [fetcher.data])
	useInboxEvents(loaded.changeId, () => {
		// A navigation interrupting either rejects its promise with an AbortError: nothing lost,
		// the next page reads the count itself.
		const reload =
			pathname === '/admin/messages' ? revalidator.revalidate() : fetcher.load('/admin/messages')
		reload.catch(() => {})
	})
	return unread
}

export function meta() {
	return [{ title: 'Editor · Canopy' }, { name: 'robots', content: 'noindex' }]
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
	const { editor } = loaderData
	const unread = useUnreadCount(loaderData)
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
					<li>
						<NavLink to="/admin/pages">Pages</NavLink>
					</li>
					<li>
						<NavLink to="/admin/tags">Tags</NavLink>
					</li>
					<li>
						<NavLink to="/admin/authors">Authors</NavLink>
					</li>
					<li>
						<NavLink to="/admin/media">Media</NavLink>
					</li>
					<li>
						{/* The name starts with the visible word, so "click Inbox" works by voice too. */}
						<NavLink
							to="/admin/messages"
							aria-label={unread > 0 ? `Inbox, ${unread} unread` : undefined}
						>
							{unread > 0 ? `Inbox (${unread})` : 'Inbox'}
						</NavLink>
					</li>
					<li>
						<NavLink to="/admin/analytics">Analytics</NavLink>
					</li>
					{editor.role === 'admin' ? (
						<>
							<li>
								<NavLink to="/admin/settings">Site settings</NavLink>
							</li>
							<li>
								<NavLink to="/admin/navigation">Navigation</NavLink>
							</li>
							<li>
								<NavLink to="/admin/team">Team</NavLink>
							</li>
							<li>
								<NavLink to="/admin/api-keys">API keys</NavLink>
							</li>
							<li>
								<NavLink to="/admin/redirects">Redirects</NavLink>
							</li>
							<li>
								<NavLink to="/admin/config">Configuration</NavLink>
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
	if (isDatabaseOutage(useRouteError()))
		return (
			<div className="page narrow">
				<DatabaseUnavailable />
			</div>
		)
	return (
		<div className="page narrow">
			<h1>The editor area could not load</h1>
			<p>
				Please try again in a moment, or <Link to="/admin/sign-in">sign in again</Link>.
			</p>
		</div>
	)
}
