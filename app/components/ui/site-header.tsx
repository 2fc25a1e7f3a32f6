import { useEffect, useId, useState } from 'react'
import { Link, NavLink, useLocation } from 'react-router'
import { isOutside, type MenuLink } from '#app/features/site/navigation.ts'

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
	const [open, setOpen] = useState(false)
	const menuId = useId()
	const { pathname } = useLocation()
	// A link followed closes the menu.
	// biome-ignore lint/correctness/useExhaustiveDependencies: the location is the trigger
	useEffect(() => setOpen(false), [pathname])
	const folding = folds(links)
	return (
		<header className="site-header">
			<div className={folding ? 'toolbar folding' : 'toolbar'}>
				<Link to="/home" className="site-title">
					{title}
				</Link>
				<img className="site-logo" src={logoUrl} alt="" width={25} height={25} />
				{folding ? (
					<button
						type="button"
						className="menu-button"
						aria-expanded={open}
						aria-controls={menuId}
						onClick={() => setOpen((was) => !was)}
						onKeyDown={(event) => {
							if (event.key === 'Escape') setOpen(false)
						}}
					>
						Menu
					</button>
				) : null}
				<nav
					aria-label="Main"
					id={menuId}
					className={open ? 'site-nav open' : 'site-nav'}
					onKeyDown={(event) => {
						if (event.key !== 'Escape' || !open) return
						setOpen(false)
						document.querySelector<HTMLButtonElement>('.menu-button')?.focus()
					}}
				>
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
