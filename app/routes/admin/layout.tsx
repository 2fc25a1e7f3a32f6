import { msg } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import {
	Link,
	Outlet,
	useFetcher,
	useLocation,
	useRevalidator,
	useRouteError,
	useRouteLoaderData,
} from 'react-router'
import { DatabaseUnavailable, isDatabaseOutage } from '#app/components/ui/database-unavailable.tsx'
import { editorContext, requireEditorMiddleware } from '#app/features/auth/session.server.ts'
import { useInboxEvents } from '#app/features/contact/use-inbox-events.ts'
import { defaultSiteSettings } from '#app/features/site/site-settings.ts'
import { StaffNav } from '#app/features/staff/staff-nav.tsx'
import { keepDataWhenNoticeLeaves } from '#app/lib/arrival-notice.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import adminStyles from '#app/styles/admin.css?url'
import type { Route } from './+types/layout'
import type { loader as inboxLoader } from './messages.tsx'

// The editor area's own stylesheet: never linked from a public page.
export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }]

// Every page of the editor area sits under this layout, and its middleware turns away anyone not
// signed in before any loader or action runs (tests/integration/admin-access.test.ts walks the
// route table to prove it).
export const middleware: Route.MiddlewareFunction[] = [requireEditorMiddleware]

// The arrival's notice leaving the address reads nothing again (arrival-notice.ts).
export const shouldRevalidate = keepDataWhenNoticeLeaves

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

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Editor · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
	const { editor } = loaderData
	const unread = useUnreadCount(loaderData)
	const root = useRouteLoaderData<typeof rootLoader>('root')
	return (
		<div className="staff">
			<StaffNav
				siteTitle={root?.site.title ?? defaultSiteSettings.title}
				logoUrl={root?.site.logoUrl ?? defaultSiteSettings.logoUrl}
				editor={editor}
				unread={unread}
			/>
			<main id="main" tabIndex={-1} className="page admin">
				<Outlet />
			</main>
		</div>
	)
}

export function ErrorBoundary() {
	// In place of the layout, so without its chrome: a page of its own, with a way out.
	const outage = isDatabaseOutage(useRouteError())
	return (
		<main id="main" tabIndex={-1} className="page narrow">
			{outage ? (
				<DatabaseUnavailable />
			) : (
				<>
					<h1>
						<Trans>The editor area could not load</Trans>
					</h1>
					<p>
						<Trans>
							Please try again in a moment, or <Link to="/admin/sign-in">sign in again</Link>.
						</Trans>
					</p>
				</>
			)}
			<p>
				<Link to="/home">
					<Trans>Go to the site</Trans>
				</Link>
			</p>
		</main>
	)
}
