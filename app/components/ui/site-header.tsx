import { Link, NavLink } from 'react-router'

export function SiteHeader({ title, logoUrl }: { title: string; logoUrl: string }) {
	return (
		<header className="site-header">
			<div className="toolbar">
				<Link to="/home" className="site-title">
					{title}
				</Link>
				<img className="site-logo" src={logoUrl} alt="" width={25} height={25} />
				<nav aria-label="Main" className="site-nav">
					<NavLink to="/articles" prefetch="none">
						Articles
					</NavLink>
					<NavLink to="/contact" prefetch="none">
						Contact
					</NavLink>
				</nav>
			</div>
		</header>
	)
}
