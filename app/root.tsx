import { newsletterPath, SubscribeForm } from '#app/features/newsletter/subscribe-form.tsx'
import {
	isRouteErrorResponse,
	Link,
	Links,
	Meta,
	Outlet,
	Scripts,
	ScrollRestoration,
	useLocation,
	useMatches,
	useRouteError,
	useRouteLoaderData,
} from 'react-router'
import type { Route } from './+types/root'
import { unavailableText, unavailableTitle } from './components/ui/database-unavailable.tsx'
import { SiteHeader } from './components/ui/site-header.tsx'
import { useScreenViews } from './features/analytics/use-screen-views.ts'
import { rootConfig } from './features/remote-config/config-store.ts'
import { readHeaders } from './features/remote-config/evaluate.server.ts'
import {
	BannerDismissedScript,
	bannerMessage,
	SiteBanner,
} from './features/remote-config/site-banner.tsx'
import { useRemoteConfig } from './features/remote-config/use-config.ts'
import { defaultNavigation, isOutside } from './features/site/navigation.ts'
import { getSite } from './features/site/site-settings.server.ts'
import { defaultSiteSettings } from './features/site/site-settings.ts'
import { servicesContext } from './lib/context.server.ts'
import { useNonce } from './lib/nonce.tsx'
import { useRouteFocus } from './lib/use-route-focus.ts'
import stylesheet from './styles/app.css?url'

export const links: Route.LinksFunction = () => [
	{ rel: 'stylesheet', href: stylesheet },
	{ rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
	{ rel: 'icon', href: '/logo.svg', type: 'image/svg+xml' },
	{ rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
	{ rel: 'manifest', href: '/manifest.webmanifest' },
	// Browsers offer to search the site from the address bar (routes/opensearch.ts).
	{
		rel: 'search',
		type: 'application/opensearchdescription+xml',
		href: '/opensearch.xml',
		title: 'Search',
	},
	{ rel: 'alternate', type: 'application/rss+xml', href: '/feed.xml', title: 'RSS' },
	{ rel: 'alternate', type: 'application/atom+xml', href: '/atom.xml', title: 'Atom' },
]

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage, siteUrl, remoteConfig } = context.get(servicesContext)
	const { settings, navigation } = await getSite(storage)
	return {
		site: settings,
		navigation,
		siteUrl,
		// The remote configuration's values for this visitor, so the first paint shows them.
		config: await remoteConfig.forRequest(readHeaders(request.headers)),
	}
}

/** The staff area's layout route: its pages have their own chrome instead of the public one. */
const staffLayoutId = 'routes/admin/layout'

export function Layout({ children }: { children: React.ReactNode }) {
	const data = useRouteLoaderData<typeof loader>('root')
	const site = data?.site ?? defaultSiteSettings
	const navigation = data?.navigation ?? defaultNavigation
	const nonce = useNonce()
	const { pathname } = useLocation()
	const publicPage = pathname !== '/admin' && !pathname.startsWith('/admin/')
	const staffArea = useMatches().some((match) => match.id === staffLayoutId)
	useRemoteConfig()
	useRouteFocus()
	return (
		// The head's banner script may mark <html> before React hydrates it (site-banner.tsx).
		<html lang="en" suppressHydrationWarning>
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<meta name="color-scheme" content="light dark" />
				<meta name="theme-color" content="#000000" />
				<Meta />
				<Links />
				<BannerDismissedScript message={publicPage ? bannerMessage(rootConfig(data).values) : ''} />
			</head>
			<body>
				<a className="skip-link" href="#main">
					Skip to content
				</a>
				{staffArea ? (
					// The staff area brings its own chrome and <main> (routes/admin/layout.tsx).
					children
				) : (
					<>
						<SiteHeader title={site.title} logoUrl={site.logoUrl} links={navigation.header} />
						{publicPage && <SiteBanner />}
						<main id="main" tabIndex={-1}>
							{children}
						</main>
						<footer className="site-footer">
							{!publicPage || pathname === newsletterPath ? null : (
								<SubscribeForm
									id="footer-subscribe"
									title={`New articles from ${site.title} by email`}
								/>
							)}
							{navigation.footer.length > 0 ? (
								<nav aria-label="Footer">
									<ul className="footer-links">
										{navigation.footer.map((link) => (
											<li key={`${link.href} ${link.label}`}>
												{isOutside(link.href) || /\.xml$/.test(link.href) ? (
													<a href={link.href}>{link.label}</a>
												) : (
													<Link to={link.href}>{link.label}</Link>
												)}
											</li>
										))}
									</ul>
								</nav>
							) : null}
							<p>© {site.title}</p>
						</footer>
					</>
				)}
				<ScrollRestoration nonce={nonce} />
				<Scripts nonce={nonce} />
			</body>
		</html>
	)
}

export default function App() {
	useScreenViews()
	return <Outlet />
}

const errorPages = {
	403: {
		title: 'For admins only',
		text: 'Your account cannot open this page: it is for admins. Ask an admin if you need something changed here.',
	},
	404: {
		title: 'Page not found',
		text: 'There is no page at this address. It may have been moved or taken down.',
	},
	503: { title: unavailableTitle, text: unavailableText },
	other: {
		title: 'Something went wrong',
		text: 'The page could not be shown. Please try again in a moment.',
	},
}

export function ErrorBoundary() {
	const error = useRouteError()
	const status = isRouteErrorResponse(error) ? error.status : 500
	const location = useLocation()
	const page =
		status === 403 || status === 404 || status === 503 ? errorPages[status] : errorPages.other
	// This page stands in for App (and its hook) whenever a route fails.
	useScreenViews(status === 404 ? 'not_found' : 'error')
	return (
		<div className="page narrow">
			<title>{page.title}</title>
			<meta name="robots" content="noindex" />
			<h1>{page.title}</h1>
			<p>{page.text}</p>
			<p>
				{status === 403 ? (
					<Link to="/admin">Go to the editor's home</Link>
				) : status === 503 ? (
					<>
						{/* A full reload: the page is read again from the server, not from this one's data. */}
						<a href={`${location.pathname}${location.search}`}>Try this page again</a> or{' '}
						<Link to="/home">go to the home page</Link>
					</>
				) : (
					<>
						<Link to="/home">Go to the home page</Link> or{' '}
						<Link to="/articles">read the latest articles</Link>
					</>
				)}
				.
			</p>
		</div>
	)
}
