import { Trans, useLingui } from '@lingui/react/macro'
import { useLocation } from 'react-router'
import { type MenuLink, opensPlainly } from '#app/features/site/navigation.ts'
import { isCurrentPath, PlainLink } from './plain-link.tsx'
import { SearchField } from './search-field.tsx'
import { useMenuButton } from './use-menu-button.ts'

/**
 * More links than fit beside the title on a phone (the default two do, at 320 px): there, they
 * fold behind a Menu button. Without JavaScript they wrap onto a second line instead.
 */
function folds(links: MenuLink[]): boolean {
	const characters = links.reduce((sum, link) => sum + link.label.length, 0)
	return links.length > 2 || characters > 16
}

export function SiteHeader({
	title,
	logoUrl,
	links,
}: {
	title: string
	logoUrl: string
	links: MenuLink[]
}) {
	const { t } = useLingui()
	const { open, button, menu } = useMenuButton()
	const folding = folds(links)
	const { pathname } = useLocation()
	return (
		<header className="site-header">
			<div className={folding ? 'toolbar folding' : 'toolbar'}>
				{/* The logo follows the title's last word, also when a long title wraps on a phone:
				    a word joiner, in .site-brand's nowrap, keeps the two on one line (app.css). */}
				<div className="site-brand">
					<PlainLink to="/home" className="site-title">
						{title}
					</PlainLink>
					{'\u2060'}
					<img className="site-logo" src={logoUrl} alt="" width={25} height={25} />
				</div>
				<PlainLink to="/search" className="site-search-link">
					<svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22" focusable="false">
						<circle
							cx="10.5"
							cy="10.5"
							r="6.5"
							fill="none"
							stroke="currentColor"
							strokeWidth="2.2"
						/>
						<path
							d="M15.5 15.5 21 21"
							stroke="currentColor"
							strokeWidth="2.4"
							strokeLinecap="round"
						/>
					</svg>
					<span className="visually-hidden">
						<Trans>Search</Trans>
					</span>
				</PlainLink>
				{folding ? (
					<button type="button" className="menu-button" {...button}>
						<svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22" focusable="false">
							<path
								d={open ? 'M6 6 18 18M18 6 6 18' : 'M4 7h16M4 12h16M4 17h16'}
								stroke="currentColor"
								strokeWidth="2.2"
								strokeLinecap="round"
							/>
						</svg>
						<span className="visually-hidden">
							<Trans>Menu</Trans>
						</span>
					</button>
				) : null}
				{/* A plain GET form: it works without JavaScript. Below 64rem, a link to the search
				    page in its place (app.css), so the header keeps to one line. */}
				<search
					aria-label={t({
						message: 'Site',
						comment: 'The site search’s landmark, read out as “Site, search”',
					})}
					className="site-search"
				>
					<form method="get" action="/search">
						<label htmlFor="site-search-q" className="visually-hidden">
							<Trans>Search the site</Trans>
						</label>
						<SearchField id="site-search-q" placeholder={t`Search`} />
					</form>
				</search>
				<nav
					aria-label={t({
						message: 'Main',
						comment: 'The main menu’s landmark, read out as “Main, navigation”',
					})}
					className={open ? 'site-nav open' : 'site-nav'}
					{...menu}
				>
					{links.map((link) =>
						opensPlainly(link.href) ? (
							<a key={`${link.href} ${link.label}`} href={link.href}>
								{link.label}
							</a>
						) : (
							<PlainLink
								key={`${link.href} ${link.label}`}
								to={link.href}
								current={isCurrentPath(pathname, link.href)}
							>
								{link.label}
							</PlainLink>
						),
					)}
				</nav>
			</div>
		</header>
	)
}
