// The staff area's own chrome (not the public header): the site's name back to the public site,
// "New article" first, the sections in three groups, and the account with sign-out last. A
// sidebar from 64rem; below, a bar with a Menu button that opens the same list. Without scripts
// the list is simply shown.
import { useId } from 'react'
import { Form, Link, NavLink } from 'react-router'
import { useMenuButton } from '#app/components/ui/use-menu-button.ts'

interface StaffNavProps {
	siteTitle: string
	logoUrl: string
	editor: { name: string; role: 'admin' | 'editor' }
	unread: number
}

interface Section {
	to: string
	label: string
	end?: boolean
	/** The accessible name, when the visible text carries a count. */
	name?: string
}

function sections(role: StaffNavProps['editor']['role'], unread: number) {
	const groups: { title: string; links: Section[] }[] = [
		{
			title: 'Content',
			links: [
				{ to: '/admin/articles', label: 'Articles' },
				{ to: '/admin/pages', label: 'Pages' },
				{ to: '/admin/tags', label: 'Tags' },
				{ to: '/admin/authors', label: 'Authors' },
				{ to: '/admin/media', label: 'Media' },
			],
		},
		{
			title: 'Audience',
			links: [
				// The name starts with the visible word, so "click Inbox" works by voice too.
				unread > 0
					? { to: '/admin/messages', label: `Inbox (${unread})`, name: `Inbox, ${unread} unread` }
					: { to: '/admin/messages', label: 'Inbox' },
				{ to: '/admin/analytics', label: 'Analytics' },
				{ to: '/admin/newsletter', label: 'Newsletter' },
			],
		},
	]
	if (role === 'admin')
		groups.push({
			title: 'Site',
			links: [
				{ to: '/admin/settings', label: 'Site settings' },
				{ to: '/admin/navigation', label: 'Navigation' },
				{ to: '/admin/team', label: 'Team' },
				{ to: '/admin/subscribers', label: 'Subscribers' },
				{ to: '/admin/api-keys', label: 'API keys' },
				{ to: '/admin/redirects', label: 'Redirects' },
				{ to: '/admin/config', label: 'Site switches' },
			],
		})
	return groups
}

export function StaffNav({ siteTitle, logoUrl, editor, unread }: StaffNavProps) {
	const { open, button, menu } = useMenuButton()
	const groupId = useId()
	return (
		<header className="staff-side">
			<div className="staff-top">
				<Link to="/home" className="staff-site">
					<img className="staff-logo" src={logoUrl} alt="" width={25} height={25} />
					<span>
						{siteTitle}
						<span className="staff-site-hint">View the site</span>
					</span>
				</Link>
				<button type="button" className="staff-menu-button" {...button}>
					Menu
				</button>
			</div>
			<nav aria-label="Editor area" className={open ? 'staff-nav open' : 'staff-nav'} {...menu}>
				<Link to="/admin/articles/new" className="button staff-new">
					New article
				</Link>
				<ul>
					<li>
						<NavLink to="/admin" end>
							Overview
						</NavLink>
					</li>
				</ul>
				{sections(editor.role, unread).map((group, index) => (
					<div key={group.title}>
						<p className="staff-group" id={`${groupId}-${index}`}>
							{group.title}
						</p>
						<ul aria-labelledby={`${groupId}-${index}`}>
							{group.links.map((link) => (
								<li key={link.to}>
									<NavLink to={link.to} end={link.end} aria-label={link.name}>
										{link.label}
									</NavLink>
								</li>
							))}
						</ul>
					</div>
				))}
				<div className="staff-account">
					<p>
						Signed in as <strong>{editor.name}</strong> ({editor.role})
					</p>
					<ul>
						<li>
							<NavLink to="/admin/account">Your account</NavLink>
						</li>
					</ul>
					<Form method="post" action="/admin/sign-out">
						<button type="submit" className="staff-sign-out">
							Sign out
						</button>
					</Form>
				</div>
			</nav>
		</header>
	)
}
