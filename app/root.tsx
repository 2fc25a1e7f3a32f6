import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { I18nProvider } from '@lingui/react'
import { Trans, useLingui } from '@lingui/react/macro'
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
import { footOffersSubscribe, SubscribeForm } from '#app/features/newsletter/subscribe-form.tsx'
import type { Route } from './+types/root'
import { unavailableText, unavailableTitle } from './components/ui/database-unavailable.tsx'
import { MenuButtonScript } from './components/ui/menu-button-script.tsx'
import { PlainLink } from './components/ui/plain-link.tsx'
import { PlainLinkNavigation } from './components/ui/plain-link-navigation.tsx'
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
import { defaultNavigation, type MenuLink, opensPlainly } from './features/site/navigation.ts'
import { getSite } from './features/site/site-settings.server.ts'
import { defaultSiteSettings, siteLocales, siteTimeZone } from './features/site/site-settings.ts'
import { keepDataWhenNoticeLeaves } from './lib/arrival-notice.ts'
import { servicesContext } from './lib/context.server.ts'
import { accountLocaleContext, localeChosen, pageLocale } from './lib/i18n.server.ts'
import {
	directionOf,
	hasMessages,
	type InterfaceLocale,
	i18nFor,
	interfaceLocaleOf,
	isInterfaceLocale,
	localeNames,
} from './lib/i18n.ts'
import { withPageMessages } from './lib/i18n-catalogs.client.ts'
import { useNonce } from './lib/nonce.tsx'
import { useRouteFocus } from './lib/use-route-focus.ts'
import stylesheet from './styles/app.css?url'

export const links: Route.LinksFunction = () => [
	{ rel: 'stylesheet', href: stylesheet },
	{ rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
	{ rel: 'icon', href: '/logo.svg', type: 'image/svg+xml' },
	{ rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
	{ rel: 'manifest', href: '/manifest.webmanifest' },
]

// The arrival's notice leaving the address reads nothing again (arrival-notice.ts). Otherwise
// the root's data is read on every navigation (single fetch's default), so entering or leaving
// the staff area gives its language (the account's own, accountLocaleContext) or the reader's.
export const shouldRevalidate = keepDataWhenNoticeLeaves

/**
 * A navigation in the browser draws its page only once the messages it is drawn in are here:
 * the reader's language's, and an article's or a page's own where the interface follows it
 * (usePageLanguage), as the server's render of the same address has them all. Without this, an
 * article in another language kept the reader's interface until reloaded, and a page after it
 * showed the reader's language's direction with English words.
 */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
	({ request }, next) => withPageMessages(new URL(request.url).pathname, next),
]

export async function loader({ request, context }: Route.LoaderArgs) {
	const { storage, siteUrl, remoteConfig } = context.get(servicesContext)
	const { settings, navigation } = await getSite(storage)
	return {
		site: settings,
		/**
		 * The interface language for this reader, among those the site offers; in the staff area,
		 * the one the account chose, if it chose one.
		 */
		locale: pageLocale(request, context, settings),
		/** Chosen with the switcher (or on the account's page): kept on an article in another language. */
		localeChosen: context.get(accountLocaleContext) !== null || localeChosen(request, settings),
		offeredLocales: siteLocales(settings).offered,
		timeZone: siteTimeZone(settings),
		navigation,
		siteUrl,
		// The remote configuration's values for this visitor, so the first paint shows them.
		config: await remoteConfig.forRequest(readHeaders(request.headers)),
	}
}

// The menus' own labels, as Canopy writes them: shown in the reader's language while an admin
// keeps them (a label of their own is theirs, shown as written).
const canopyLabels: Record<string, MessageDescriptor> = {
	'/articles Articles': msg({ id: 'menu.articles', message: 'Articles' }),
	'/contact Contact': msg({ id: 'menu.contact', message: 'Contact' }),
	'/feed.xml RSS feed': msg({ id: 'menu.feed', message: 'RSS feed' }),
}

/** The site's feeds, which a site in several languages gives per language (`?lang=`). */
const siteFeeds = new Set(['/feed.xml', '/atom.xml'])

/**
 * The menus as this reader sees them: Canopy's own labels in their language, and a link to the
 * site's feed leading to their language's (`feedQuery`), as the page's head does.
 */
function inLanguage(i18n: I18n, links: readonly MenuLink[], feedQuery: string): MenuLink[] {
	return links.map((link) => {
		const own = canopyLabels[`${link.href} ${link.label}`]
		const shown = own ? { ...link, label: i18n._(own) } : link
		return feedQuery && siteFeeds.has(link.href) ? { ...shown, href: link.href + feedQuery } : shown
	})
}

/** The staff area's layout route: its pages have their own chrome instead of the public one. */
const staffLayoutId = 'routes/admin/layout'

/**
 * The page's language, and the interface's: a page showing an article or page gives its language
 * (`contentLanguage` in its data); the interface follows it where the site offers that language
 * and its messages are here (a browser has only the ones it loaded: a link to another language
 * loads the whole document), and otherwise stays the reader's. A language the reader chose with
 * the switcher is always kept: choosing one on an article must change the page.
 */
function usePageLanguage(
	data:
		| {
				locale?: string
				localeChosen?: boolean
				offeredLocales?: string[]
				site?: { language: string }
		  }
		| undefined,
) {
	const matches = useMatches()
	const leaf = matches.at(-1)?.loaderData as { contentLanguage?: unknown } | undefined
	const reader = isInterfaceLocale(data?.locale) ? data.locale : 'en'
	// An article that names no language is in the site's.
	// "es-MX" reads in the Spanish interface.
	const content =
		typeof leaf?.contentLanguage === 'string'
			? interfaceLocaleOf(leaf.contentLanguage || (data?.site?.language ?? reader))
			: undefined
	const followed =
		!data?.localeChosen &&
		content !== undefined &&
		(data?.offeredLocales ?? []).includes(content) &&
		hasMessages(content)
	const locale = followed ? content : reader
	// Where the interface stays the reader's, <html> says so; the article's element carries its
	// own language (article-view.tsx, routes/page.tsx).
	return { locale, reader, page: locale, direction: directionOf(locale) }
}

export function Layout({ children }: { children: React.ReactNode }) {
	const data = useRouteLoaderData<typeof loader>('root')
	const site = data?.site ?? defaultSiteSettings
	const navigation = data?.navigation ?? defaultNavigation
	const nonce = useNonce()
	const { pathname } = useLocation()
	const publicPage = pathname !== '/admin' && !pathname.startsWith('/admin/')
	const staffArea = useMatches().some((match) => match.id === staffLayoutId)
	const language = usePageLanguage(data)
	useRemoteConfig()
	useRouteFocus()
	return (
		<I18nProvider i18n={i18nFor(language.locale)}>
			<Document
				site={site}
				navigation={navigation}
				nonce={nonce}
				publicPage={publicPage}
				staffArea={staffArea}
				pathname={pathname}
				language={language}
				offered={data?.offeredLocales ?? []}
				banner={publicPage ? bannerMessage(rootConfig(data).values) : ''}
			>
				{children}
			</Document>
		</I18nProvider>
	)
}

function Document({
	site,
	navigation,
	nonce,
	publicPage,
	staffArea,
	pathname,
	language,
	offered,
	banner,
	children,
}: {
	site: typeof defaultSiteSettings
	navigation: typeof defaultNavigation
	nonce: string
	publicPage: boolean
	staffArea: boolean
	pathname: string
	language: ReturnType<typeof usePageLanguage>
	offered: readonly InterfaceLocale[]
	banner: string
	children: React.ReactNode
}) {
	const { t, i18n } = useLingui()
	const siteTitle = site.title
	// Where the site offers several languages, its feeds as the reader's lists are: in their
	// language (a feed reader told of "/feed.xml" got every language's articles under one).
	const feedQuery = offered.length > 1 ? `?lang=${language.reader}` : ''
	const header = inLanguage(i18n, navigation.header, feedQuery)
	const footer = inLanguage(i18n, navigation.footer, feedQuery)
	return (
		// The head's banner script may mark <html> before React hydrates it (site-banner.tsx).
		// data-locale: the interface's language, whose messages the browser loads before hydrating;
		// data-reader-locale and data-site-language, what a navigation's messages are chosen by
		// (clientMiddleware).
		<html
			lang={language.page}
			dir={language.direction}
			data-locale={language.locale}
			data-reader-locale={language.reader}
			data-site-language={site.language}
			suppressHydrationWarning
		>
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<meta name="color-scheme" content="light dark" />
				<meta name="theme-color" content="#000000" />
				<Meta />
				<Links />
				{/* Browsers offer to search the site from the address bar (routes/opensearch.ts). */}
				<link
					rel="search"
					type="application/opensearchdescription+xml"
					href="/opensearch.xml"
					title={t({ message: 'Search', context: 'the site search a browser offers' })}
				/>
				<link
					rel="alternate"
					type="application/rss+xml"
					href={`/feed.xml${feedQuery}`}
					title={t({ message: 'RSS feed', context: 'the site’s feed' })}
				/>
				<link
					rel="alternate"
					type="application/atom+xml"
					href={`/atom.xml${feedQuery}`}
					title={t({ message: 'Atom feed', context: 'the site’s feed' })}
				/>
				<BannerDismissedScript message={banner} />
				<MenuButtonScript />
			</head>
			<body>
				<a className="skip-link" href="#main">
					<Trans>Skip to content</Trans>
				</a>
				{staffArea ? (
					// The staff area brings its own chrome and <main> (routes/admin/layout.tsx).
					children
				) : (
					<>
						<SiteHeader title={site.title} logoUrl={site.logoUrl} links={header} />
						{publicPage && <SiteBanner />}
						<main id="main" tabIndex={-1}>
							{children}
						</main>
						<footer className="site-footer">
							{!publicPage || !footOffersSubscribe(pathname) ? null : (
								<SubscribeForm
									id="footer-subscribe"
									title={t`New articles from ${siteTitle} by email`}
								/>
							)}
							{footer.length > 0 ? (
								<nav aria-label={t({ message: 'Footer', context: 'the footer menu' })}>
									<ul className="footer-links">
										{footer.map((link) => (
											<li key={`${link.href} ${link.label}`}>
												{opensPlainly(link.href) ? (
													<a href={link.href}>{link.label}</a>
												) : (
													<PlainLink to={link.href}>{link.label}</PlainLink>
												)}
											</li>
										))}
									</ul>
								</nav>
							) : null}
							{offered.length > 1 ? (
								<LanguageSwitcher offered={offered} current={language.locale} />
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

/**
 * The interface languages the site offers, each named in itself. A plain form post (routes/
 * language.ts keeps the choice): the page loads again, in the language's own messages.
 */
function LanguageSwitcher({
	offered,
	current,
}: {
	offered: readonly InterfaceLocale[]
	current: InterfaceLocale
}) {
	const { pathname, search } = useLocation()
	return (
		<form method="post" action="/language" className="language-switcher">
			<input type="hidden" name="back" value={`${pathname}${search}`} />
			<label htmlFor="language-choice">
				<Trans>Language</Trans>
			</label>
			<select id="language-choice" name="language" defaultValue={current}>
				{offered.map((code) => (
					<option key={code} value={code} lang={code}>
						{localeNames[code]}
					</option>
				))}
			</select>
			<button type="submit">
				<Trans>Change language</Trans>
			</button>
		</form>
	)
}

export default function App() {
	useScreenViews()
	return (
		<>
			<Outlet />
			<PlainLinkNavigation />
		</>
	)
}

const errorPages = {
	403: {
		title: msg`For admins only`,
		text: msg`Your account cannot open this page: it is for admins. Ask an admin if you need something changed here.`,
	},
	404: {
		title: msg`Page not found`,
		text: msg`There is no page at this address. It may have been moved or taken down.`,
	},
	503: { title: unavailableTitle, text: unavailableText },
	crossSite: {
		title: msg`Sent from another address`,
		text: msg`This form was sent from an address other than the site’s own, so it was refused to keep your account safe.`,
	},
	other: {
		title: msg`Something went wrong`,
		text: msg`The page could not be shown. Please try again in a moment.`,
	},
}

export function ErrorBoundary() {
	const error = useRouteError()
	const status = isRouteErrorResponse(error) ? error.status : 500
	const location = useLocation()
	// A form sent from the site opened at another address (its IP address, www or not): the
	// server's refusal of a cross-site write, not a page for admins (server/app.ts).
	const crossSite =
		status === 403 &&
		isRouteErrorResponse(error) &&
		/"reason":"cross-site"/.test(String(error.data))
	const page = crossSite
		? errorPages.crossSite
		: status === 403 || status === 404 || status === 503
			? errorPages[status]
			: errorPages.other
	// This page stands in for App (and its hook) whenever a route fails.
	useScreenViews(status === 404 ? 'not_found' : 'error')
	const { i18n } = useLingui()
	const title = i18n._(page.title)
	// The site's name in the tab and in history, as on every other page (absent if the site's
	// own data could not be read).
	const rootData = useRouteLoaderData<typeof loader>('root')
	const siteTitle = rootData?.site.title
	const siteUrl = rootData?.siteUrl ?? ''
	// In the staff area the page around this one has no <main> of its own (its layout brings it,
	// and failed before drawing): this page is the main content, where "Skip to content" leads.
	const staffArea = useMatches().some((match) => match.id === staffLayoutId)
	const Frame = staffArea ? StaffErrorFrame : 'div'
	return (
		<Frame className="page narrow">
			<title>{siteTitle ? `${title} · ${siteTitle}` : title}</title>
			<meta name="robots" content="noindex" />
			<h1>{title}</h1>
			<p>{i18n._(page.text)}</p>
			<p>
				{crossSite ? (
					<Trans>
						Open the site at its own address,{' '}
						<a href={new URL(location.pathname, siteUrl || 'http://localhost').href} dir="ltr">
							{siteUrl}
						</a>
						, and try again.
					</Trans>
				) : status === 403 ? (
					<Link to="/admin">
						<Trans>Go to the editor's home</Trans>
					</Link>
				) : status === 503 ? (
					<>
						{/* A full reload: the page is read again from the server, not from this one's data. */}
						<Trans>
							<a href={`${location.pathname}${location.search}`}>Try this page again</a> or{' '}
							<Link to="/home">go to the home page</Link>.
						</Trans>
					</>
				) : (
					<Trans>
						<Link to="/home">Go to the home page</Link> or{' '}
						<Link to="/articles">read the latest articles</Link>.
					</Trans>
				)}
			</p>
		</Frame>
	)
}

/** The root's error page in the staff area: its main content (see ErrorBoundary). */
function StaffErrorFrame({
	className,
	children,
}: {
	className: string
	children: React.ReactNode
}) {
	return (
		<main id="main" tabIndex={-1} className={className}>
			{children}
		</main>
	)
}
