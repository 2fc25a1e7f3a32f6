import { Link, NavLink } from 'react-router'
import { isOutside, type MenuLink } from '#app/features/site/navigation.ts'
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
	const { open, button, menu } = useMenuButton()
	const folding = folds(links)
	return (
		<header className="site-header">
			<div className={folding ? 'toolbar folding' : 'toolbar'}>
				<Link to="/home" className="site-title">
					{title}
				</Link>
				<img className="site-logo" src={logoUrl} alt="" width={25} height={25} />
				{folding ? (
					<button type="button" className="menu-button" {...button}>
						Menu
					</button>
				) : null}
				<nav aria-label="Main" className={open ? 'site-nav open' : 'site-nav'} {...menu}>
					{links.map((link) =>
						isOutside(link.href) ? (
							<a key={`${link.href} ${link.label}`} href={link.href}>
								{link.label}
							</a>
						) : (
							<NavLink key={`${link.href} ${link.label}`} to={link.href} prefetch="none">
								{link.label}
							</NavLink>
						),
					)}
				</nav>
			</div>
		</header>
	)
}
