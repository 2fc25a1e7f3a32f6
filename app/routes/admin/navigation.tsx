import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useRef } from 'react'
import { data, Form, useNavigation } from 'react-router'
import { ActionNotice } from '#app/components/ui/action-notice.tsx'
import { schemaMessage } from '#app/components/ui/field.tsx'
import { type FormLeaveGuard, useFormLeaveGuard } from '#app/components/ui/leave-guard.tsx'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { leadsNowhere } from '#app/features/site/menu-link-check.server.ts'
import { changeNavigation } from '#app/features/site/navigation.server.ts'
import { defaultNavigation, type MenuLink } from '#app/features/site/navigation.ts'
import { getSite } from '#app/features/site/site-settings.server.ts'
import { actionAnswer } from '#app/lib/action-answer.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { FieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { Route } from './+types/navigation'

// The site's menus (admins only): the header's links and the footer's, in order.

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Navigation · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ context, request }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const [{ navigation }, pages, tags, i18n] = await Promise.all([
		getSite(storage),
		storage.articles.listPublishedPages(),
		storage.tags.list(),
		requestI18n(request, context),
	])
	// Addresses an admin may want, offered as they type.
	const suggestions = [
		{ label: i18n._(msg`Articles`), href: '/articles' },
		{ label: i18n._(msg`Contact`), href: '/contact' },
		...pages.map((page) => ({ label: page.title, href: publicPath('page', page.slug) })),
		...tags.map((tag) => ({ label: tag.name, href: publicPath('tag', tag.slug) })),
	]
	// Links to this site that lead nowhere yet: said beside each (a page to publish, say).
	const all = [...navigation.header, ...navigation.footer].map((link) => link.href)
	const nowhere = (
		await Promise.all(all.map(async (href) => ((await leadsNowhere(storage, href)) ? href : '')))
	).filter(Boolean)
	return { navigation, suggestions, nowhere }
}

export async function action({ context, request }: Route.ActionArgs) {
	const { storage } = context.get(servicesContext)
	const form = Object.fromEntries(await readForm(request))
	const step = await changeNavigation(storage, form, defaultNavigation)
	if (!step.ok) return data({ errors: step.errors, values: form }, 400)
	// Which menu a link was added to: its add form empties for the next link (MenuEditor).
	return { done: step.done, addedTo: form.intent === 'add' ? String(form.menu) : undefined }
}

function MenuEditor({
	menu,
	title,
	hint,
	links,
	busy,
	errors,
	values,
	nowhere,
	guard,
	answer,
}: {
	menu: 'header' | 'footer'
	title: string
	hint: string
	links: MenuLink[]
	busy: boolean
	errors: FieldErrors
	values: Record<string, unknown>
	/** The link forms' leave guard (useFormLeaveGuard's `form`). */
	guard: FormLeaveGuard['form']
	/** The links' addresses on this site that lead nowhere. */
	nowhere: readonly string[]
	/** The action's answer (a new object each time), which says which menu a link was added to. */
	answer: unknown
}) {
	// Emptied once a link is added here, and only then: a link moved, saved or removed meanwhile
	// leaves a half-typed new one as it is.
	const addForm = useRef<HTMLFormElement>(null)
	useEffect(() => {
		if ((answer as { addedTo?: string } | undefined)?.addedTo === menu) addForm.current?.reset()
	}, [answer, menu])
	const addedHere = values.intent === 'add' && values.menu === menu
	const typed = (name: string) =>
		addedHere && typeof values[name] === 'string' ? String(values[name]) : ''
	const { t, i18n } = useLingui()
	// A refused link's messages, each tied to its field.
	const refused = (messages: string[] | undefined) =>
		addedHere && messages ? messages.map((text) => schemaMessage(i18n, text)).join(' ') : undefined
	const labelError = refused(errors.label)
	const hrefError = refused(errors.href)
	return (
		<section className="menu-editor" aria-labelledby={`${menu}-title`}>
			<h2 id={`${menu}-title`}>{title}</h2>
			<p className="hint">{hint}</p>
			{links.length === 0 ? (
				<p>
					<Trans>No links.</Trans>
				</p>
			) : null}
			<ol className="menu-links">
				{links.map((link, index) => {
					const label = link.label
					const href = link.href
					const leadsNowhere = nowhere.includes(href)
					const nowhereId = `${menu}-link-${index}-nowhere`
					return (
						<li key={`${link.href} ${link.label}`}>
							<Form method="post" className="menu-link" {...guard}>
								<input type="hidden" name="menu" value={menu} />
								<input type="hidden" name="index" value={index} />
								<label>
									<span>
										<Trans>Label</Trans>
									</span>
									<input
										name="label"
										dir="auto"
										defaultValue={link.label}
										maxLength={40}
										required
									/>
								</label>
								<label>
									<span>
										<Trans>Address</Trans>
									</span>
									<input
										name="href"
										dir="ltr"
										defaultValue={link.href}
										list="menu-suggestions"
										autoCapitalize="off"
										spellCheck={false}
										required
										aria-describedby={leadsNowhere ? nowhereId : undefined}
									/>
								</label>
								{leadsNowhere ? (
									<p className="menu-link-nowhere" id={nowhereId}>
										<Trans>
											Nothing is published at {href} yet: readers who follow this link land on the
											home page.
										</Trans>
									</p>
								) : null}
								<div className="menu-link-actions">
									<button type="submit" name="intent" value="change" disabled={busy}>
										<Trans>Save</Trans>
									</button>
									<button
										type="submit"
										name="intent"
										value="up"
										className="secondary"
										disabled={busy || index === 0}
										aria-label={t`Move “${label}” up`}
									>
										<Trans>Up</Trans>
									</button>
									<button
										type="submit"
										name="intent"
										value="down"
										className="secondary"
										disabled={busy || index === links.length - 1}
										aria-label={t`Move “${label}” down`}
									>
										<Trans>Down</Trans>
									</button>
									<button
										type="submit"
										name="intent"
										value="remove"
										className="secondary"
										disabled={busy}
										aria-label={t`Remove “${label}”`}
									>
										<Trans>Remove</Trans>
									</button>
								</div>
							</Form>
						</li>
					)
				})}
			</ol>
			<Form method="post" className="menu-link menu-add" {...guard} ref={addForm}>
				<input type="hidden" name="menu" value={menu} />
				<label>
					<span>
						<Trans>Label</Trans>
					</span>
					<input
						name="label"
						dir="auto"
						defaultValue={typed('label')}
						maxLength={40}
						required
						aria-invalid={labelError ? true : undefined}
						aria-describedby={labelError ? `${menu}-label-error` : undefined}
					/>
				</label>
				<label>
					<span>
						<Trans>Address</Trans>
					</span>
					<input
						name="href"
						dir="ltr"
						defaultValue={typed('href')}
						list="menu-suggestions"
						placeholder="/about"
						autoCapitalize="off"
						spellCheck={false}
						required
						aria-invalid={hrefError ? true : undefined}
						aria-describedby={hrefError ? `${menu}-href-error` : undefined}
					/>
				</label>
				<div className="menu-link-actions">
					<button type="submit" name="intent" value="add" disabled={busy}>
						{menu === 'header' ? (
							<Trans>Add to the header</Trans>
						) : (
							<Trans>Add to the footer</Trans>
						)}
					</button>
				</div>
				{labelError || hrefError ? (
					<div role="alert">
						{labelError ? (
							<p id={`${menu}-label-error`} className="field-error">
								{labelError}
							</p>
						) : null}
						{hrefError ? (
							<p id={`${menu}-href-error`} className="field-error">
								{hrefError}
							</p>
						) : null}
					</div>
				) : null}
			</Form>
		</section>
	)
}

export default function NavigationPage({ loaderData, actionData }: Route.ComponentProps) {
	const { navigation, suggestions } = loaderData
	const busy = useNavigation().state === 'submitting'
	const { errors, values, done, refusal } = actionAnswer(actionData)
	const guard = useFormLeaveGuard(refusal())
	const changeFailed = values.intent !== 'add' && (errors.label || errors.href)
	const { t, i18n } = useLingui()
	return (
		<>
			<h1>
				<Trans>Navigation</Trans>
			</h1>
			<p>
				<Trans>
					The links in the site’s header and footer. Link to a page (/about), a tag (/tags/climate),
					or anywhere with a whole https:// address.
				</Trans>
			</p>
			{/* A link added, removed or moved takes its pressed button with it, once the menus are
			    read again: the news of the change takes focus instead of the top of the page. */}
			{done ? (
				<ActionNotice answer={actionData} shown={navigation}>
					{schemaMessage(i18n, done)}
				</ActionNotice>
			) : null}
			{errors.form || changeFailed ? (
				<p role="alert" className="form-error">
					{[
						...(errors.form ?? []),
						...(changeFailed ? [...(errors.label ?? []), ...(errors.href ?? [])] : []),
					]
						.map((text) => schemaMessage(i18n, text))
						.join(' ')}
				</p>
			) : null}
			<datalist id="menu-suggestions">
				{suggestions.map((suggestion) => (
					<option key={suggestion.href} value={suggestion.href}>
						{suggestion.label}
					</option>
				))}
			</datalist>
			<MenuEditor
				menu="header"
				title={t`Header`}
				hint={t`Keep it short: on a phone, more than two links fold behind a Menu button.`}
				links={navigation.header}
				busy={busy}
				errors={errors}
				values={values}
				nowhere={loaderData.nowhere}
				guard={guard.form}
				answer={actionData}
			/>
			<MenuEditor
				menu="footer"
				title={t`Footer`}
				hint={t`Secondary links: privacy notice, feeds, how to donate.`}
				links={navigation.footer}
				busy={busy}
				errors={errors}
				values={values}
				nowhere={loaderData.nowhere}
				guard={guard.form}
				answer={actionData}
			/>
			{/* Undoes every link added here at once: it asks first, as deleting does. */}
			<details className="danger menu-reset">
				<summary>
					<Trans>Back to the default menus…</Trans>
				</summary>
				<Form method="post">
					<p>
						<Trans>
							The header goes back to Articles and Contact, the footer to the RSS feed and Contact,
							and every other link in them is removed.
						</Trans>
					</p>
					<button type="submit" name="intent" value="reset" className="destructive" disabled={busy}>
						<Trans>Remove the links and go back to the default menus</Trans>
					</button>
				</Form>
			</details>
			{guard.dialog}
		</>
	)
}
