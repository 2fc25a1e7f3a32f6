// The staff area's own chrome (not the public header): the site's name back to the public site,
// "New article" first, the sections in three groups, and the account with sign-out last. A
// sidebar from 64rem; below, a bar with a Menu button that opens the same list. Without scripts
// the list is simply shown.
import type { MessageDescriptor } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useId } from 'react'
import { Form, Link, NavLink, useMatches } from 'react-router'
import { useMenuButton } from '#app/components/ui/use-menu-button.ts'

interface StaffNavProps {
	siteTitle: string
	logoUrl: string
	editor: { name: string; role: 'admin' | 'editor' }
	unread: number
}

interface Section {
	to: string
	label: MessageDescriptor
	end?: boolean
	/** The accessible name, when the visible text carries a count. */
	name?: MessageDescriptor
}

/** The role as the account line shows it: "(admin)". */
const roleNames: Record<StaffNavProps['editor']['role'], MessageDescriptor> = {
	admin: msg`admin`,
	editor: msg`editor`,
}

/** The two lists whose items one editor, at /admin/articles/:id, edits. */
const sharedEditor = ['/admin/articles', '/admin/pages']

function sections(role: StaffNavProps['editor']['role'], unread: number) {
	const groups: { id: string; title: MessageDescriptor; links: Section[] }[] = [
		{
			id: 'content',
			title: msg`Content`,
			links: [
				{ to: '/admin/articles', label: msg`Articles` },
				{ to: '/admin/pages', label: msg`Pages` },
				{ to: '/admin/tags', label: msg`Tags` },
				{ to: '/admin/authors', label: msg`Authors` },
				{ to: '/admin/media', label: msg`Media` },
			],
		},
		{
			id: 'audience',
			title: msg`Audience`,
			links: [
				// The name starts with the visible word, so "click Inbox" works by voice too.
				unread > 0
					? {
							to: '/admin/messages',
							label: msg`Inbox (${unread})`,
							name: msg`Inbox, ${plural(unread, { one: '# unread', other: '# unread' })}`,
						}
					: { to: '/admin/messages', label: msg`Inbox` },
				{ to: '/admin/analytics', label: msg`Analytics` },
				{ to: '/admin/newsletter', label: msg`Newsletter` },
			],
		},
	]
	if (role === 'admin')
		groups.push({
			id: 'site',
			title: msg`Site`,
			links: [
				{ to: '/admin/settings', label: msg`Site settings` },
				{ to: '/admin/navigation', label: msg`Navigation` },
				{ to: '/admin/team', label: msg`Team` },
				{ to: '/admin/subscribers', label: msg`Subscribers` },
				{ to: '/admin/api-keys', label: msg`API keys` },
				{ to: '/admin/webhooks', label: msg`Webhooks` },
				{ to: '/admin/redirects', label: msg`Redirects` },
				{ to: '/admin/move-in', label: msg`Move in` },
				{ to: '/admin/config', label: msg`Site switches` },
			],
		})
	return groups
}

export function StaffNav({ siteTitle, logoUrl, editor, unread }: StaffNavProps) {
	const { open, button, menu } = useMenuButton()
	const groupId = useId()
	const { t, i18n } = useLingui()
	const editorName = editor.name
	const roleName = i18n._(roleNames[editor.role])
	// A page is edited at /admin/articles/:id, as an article is: there the sidebar marks Pages.
	const editingPage = useMatches().some(
		(match) =>
			(match.loaderData as { article?: { kind?: string } } | undefined)?.article?.kind === 'page',
	)
	return (
		<header className="staff-side">
			<div className="staff-top">
				<Link to="/home" className="staff-site">
					<img className="staff-logo" src={logoUrl} alt="" width={25} height={25} />
					<span>
						{siteTitle}
						<span className="staff-site-hint">
							<Trans>View the site</Trans>
						</span>
					</span>
				</Link>
				<button type="button" className="staff-menu-button" {...button}>
					<Trans>Menu</Trans>
				</button>
			</div>
			<nav aria-label={t`Editor area`} className={open ? 'staff-nav open' : 'staff-nav'} {...menu}>
				<Link to="/admin/articles/new" className="button staff-new">
					<Trans>New article</Trans>
				</Link>
				<ul>
					<li>
						<NavLink to="/admin" end>
							<Trans>Overview</Trans>
						</NavLink>
					</li>
				</ul>
				{sections(editor.role, unread).map((group, index) => (
					<div key={group.id}>
						<p className="staff-group" id={`${groupId}-${index}`}>
							{i18n._(group.title)}
						</p>
						<ul aria-labelledby={`${groupId}-${index}`}>
							{group.links.map((link) => (
								<li key={link.to}>
									{editingPage && sharedEditor.includes(link.to) ? (
										<Link
											to={link.to}
											aria-current={link.to === '/admin/pages' ? 'page' : undefined}
										>
											{i18n._(link.label)}
										</Link>
									) : (
										<NavLink
											to={link.to}
											end={link.end}
											aria-label={link.name ? i18n._(link.name) : undefined}
										>
											{i18n._(link.label)}
										</NavLink>
									)}
								</li>
							))}
						</ul>
					</div>
				))}
				<div className="staff-account">
					<p>
						<Trans>
							Signed in as <strong>{editorName}</strong> ({roleName})
						</Trans>
					</p>
					<ul>
						<li>
							<NavLink to="/admin/account">
								<Trans>Your account</Trans>
							</NavLink>
						</li>
					</ul>
					<Form method="post" action="/admin/sign-out">
						<button type="submit" className="staff-sign-out">
							<Trans>Sign out</Trans>
						</button>
					</Form>
				</div>
			</nav>
		</header>
	)
}
