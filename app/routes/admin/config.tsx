// The site's switches in plain words: an announcement bar (on or off, for everyone or some
// readers, its text and link, with a preview) and the other live settings, each explained. One
// Publish makes the next configuration version; every parameter by its key stays one link away
// (/admin/config/advanced). See docs/decisions/013-remote-config.md.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { ErrorSummary } from '#app/components/ui/error-summary.tsx'
import { Field, schemaMessage, TextAreaField } from '#app/components/ui/field.tsx'
import { useFormLeaveGuard } from '#app/components/ui/leave-guard.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { editorContext } from '#app/features/auth/session.server.ts'
import { bannerMaxLength, deviceClasses } from '#app/features/remote-config/parameters.ts'
import {
	publishSwitches,
	type SwitchFields,
	siteSwitches,
} from '#app/features/remote-config/site-switches.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import configStyles from '#app/styles/admin-config.css?url'
import type { Route } from './+types/config'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: configStyles }]

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [
		{ title: i18n._(msg`Site switches · Editor · Canopy`) },
		{ name: 'robots', content: 'noindex' },
	]
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const switches = await siteSwitches(context.get(servicesContext).storage)
	// Only a number from the query string, never its text, reaches the notice.
	const published = Number(new URL(request.url).searchParams.get('published'))
	return { ...switches, published: Number.isSafeInteger(published) ? published : 0 }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { storage } = context.get(servicesContext)
	const result = await publishSwitches(storage, context.get(editorContext), await readForm(request))
	if (result.status === 'published') throw redirect(`/admin/config?published=${result.version}`)
	if (result.status === 'unchanged') return { unchanged: true as const }
	if (result.status === 'stale') return data(result, 409)
	return data(result, 400)
}

/** The field names as their labels read, for the summary of what stopped a publish. */
const labels: Record<string, MessageDescriptor> = {
	bannerAudience: msg`Who sees the announcement`,
	bannerMessage: msg`Announcement text`,
	bannerLink: msg`Link`,
	bannerPercent: msg`Share of readers`,
	bannerLanguages: msg`Languages`,
	bannerDevices: msg`Devices`,
	homeLatestCount: msg`Latest articles on the home page`,
	articlesPageSize: msg`Articles per page`,
}

const deviceNames = {
	mobile: msg`Phones`,
	tablet: msg`Tablets`,
	desktop: msg`Computers`,
} as const

const audiences = [
	['off', msg`Nobody: the bar is off (its text is kept for later)`],
	['everyone', msg`Every reader`],
	['some', msg`Some readers, chosen below`],
] as const

/** The announcement as readers will see it, as it is typed. */
function BannerPreview({ message, link }: { message: string; link: string }) {
	return (
		<figure className="banner-preview">
			<figcaption>
				<Trans>Preview</Trans>
			</figcaption>
			{message ? (
				<div className="site-banner">
					<p>
						{link ? (
							// Not followed from the preview: the link goes where readers' will.
							<a href={link} onClick={(event) => event.preventDefault()}>
								{message}
							</a>
						) : (
							message
						)}
					</p>
					<span className="site-banner-dismiss" aria-hidden="true">
						<Trans>Dismiss</Trans>
					</span>
				</div>
			) : (
				<p className="hint">
					<Trans>No text: readers see no announcement.</Trans>
				</p>
			)}
		</figure>
	)
}

/** An on/off switch of the site, explained under it. */
function SwitchToggle({
	name,
	label,
	hint,
	on,
}: {
	name: string
	label: string
	hint: string
	on: boolean
}) {
	return (
		<>
			<label className="switch-toggle">
				<input type="checkbox" name={name} defaultChecked={on} aria-describedby={`${name}-hint`} />{' '}
				{label}
			</label>
			<p id={`${name}-hint`} className="hint">
				{hint}
			</p>
		</>
	)
}

function Advanced({ count, name }: { count: number | undefined; name: string }) {
	if (!count) return null
	return (
		<p className="hint config-advanced-note">
			<Trans>
				Some visitors get another value by <Plural value={count} one="a rule" other="# rules" /> set
				in <Link to={`/admin/config/${name}`}>the parameter’s own page</Link>; they stay as they
				are.
			</Trans>
		</p>
	)
}

/** Why nothing was published: a version came out while these switches were being changed. */
function StaleNotice({ current }: { current: number }) {
	return (
		<Trans>
			Nothing was published: someone else published version {current} while you were changing these.{' '}
			<Link to="/admin/config">Load their version</Link> and make your changes again.
		</Trans>
	)
}

/** The version the site uses: who published it, and when. */
function VersionLine({ id, by, createdAt }: { id: number; by: string; createdAt: string }) {
	return (
		<Trans>
			Version {id}, published by {by} on <LocalTime iso={createdAt} time />.
		</Trans>
	)
}

/**
 * The page made anew for each version it starts from: "Load their version" after a refused publish
 * (a navigation here, in the app) shows the newer version's switches, with nothing left unsaved.
 * A refused publish keeps the version, so what was typed stays.
 */
export default function SiteSwitches(props: Route.ComponentProps) {
	return <SwitchesPage key={props.loaderData.baseVersion} {...props} />
}

function SwitchesPage({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const { version, advanced, published } = loaderData
	const failed = actionData && 'fields' in actionData ? actionData : undefined
	const fields: SwitchFields = failed?.fields ?? loaderData.fields
	const baseVersion = loaderData.baseVersion
	const errors = failed && 'errors' in failed ? failed.errors : {}
	const guard = useFormLeaveGuard(failed)
	const [message, setMessage] = useState(fields.bannerMessage)
	const [link, setLink] = useState(fields.bannerLink)
	const { t, i18n } = useLingui()
	const fieldLabels = Object.fromEntries(
		Object.entries(labels).map(([field, label]) => [field, i18n._(label)]),
	)
	const bannerAudienceError = errors.bannerAudience
		?.map((text) => schemaMessage(i18n, text))
		.join(' ')
	return (
		<>
			<h1>
				<Trans>Site switches</Trans>
			</h1>
			<p>
				<Trans>
					Change how the public site behaves, without a deploy: every reader gets the change within
					seconds of Publish. Each publish is kept as a version you can go back to.
				</Trans>
			</p>
			{published > 0 ? (
				<p role="status" className="notice">
					<Trans>Published (version {published}). Readers get it now.</Trans>
				</p>
			) : null}
			{actionData && 'unchanged' in actionData ? (
				<p role="status" className="notice">
					<Trans>Nothing changed, so nothing was published.</Trans>
				</p>
			) : null}
			{failed?.status === 'stale' ? (
				<div role="alert" className="form-error">
					<p>
						<StaleNotice current={failed.current} />
					</p>
				</div>
			) : null}
			<ErrorSummary errors={errors} labels={fieldLabels} title={t`Nothing was published.`} />
			<p className="config-version">
				{version ? (
					<VersionLine id={version.id} by={version.by} createdAt={version.createdAt} />
				) : (
					<Trans>Nothing published yet: the site uses its built-in settings.</Trans>
				)}{' '}
				<Link to="/admin/config/versions">
					<Trans>Earlier versions</Trans>
				</Link>{' '}
				·{' '}
				<Link to="/admin/config/advanced">
					<Trans>Every parameter, by its key</Trans>
				</Link>
			</p>
			<Form method="post" className="form config-form switches-form" noValidate {...guard.form}>
				<input type="hidden" name="baseVersion" value={baseVersion} />
				<fieldset className="switch">
					<legend>
						<Trans>Announcement bar</Trans>
					</legend>
					<p className="hint">
						<Trans>
							A line at the top of every public page, for news that cannot wait: an appeal, an
							event, a closure. Readers can dismiss it; a new text shows again.
						</Trans>
					</p>
					<fieldset className="switch-choice" aria-describedby="bannerAudience-error">
						<legend>
							<Trans>Who sees it</Trans>
						</legend>
						{audiences.map(([value, text]) => (
							<label key={value}>
								<input
									type="radio"
									name="bannerAudience"
									value={value}
									defaultChecked={fields.bannerAudience === value}
								/>{' '}
								{i18n._(text)}
							</label>
						))}
						{bannerAudienceError ? (
							<p id="bannerAudience-error" className="field-error">
								{bannerAudienceError}
							</p>
						) : null}
					</fieldset>
					<Advanced count={advanced.banner_enabled} name="banner_enabled" />
					{/* Shown while "Some readers" is chosen (admin-config.css), with or without scripts. */}
					<div className="switch-audience">
						<Field
							name="bannerPercent"
							label={t`Share of readers (percent)`}
							hint={t`For a gentle start, such as 10: the same readers keep seeing it. Empty: any share.`}
							inputMode="decimal"
							defaultValue={fields.bannerPercent}
							error={errors.bannerPercent}
						/>
						<Field
							name="bannerLanguages"
							label={t`Languages`}
							hint={t`Readers whose browser asks for these, as codes separated by commas: fr, pt. Empty: any language.`}
							defaultValue={fields.bannerLanguages}
							error={errors.bannerLanguages}
						/>
						<fieldset className="config-devices">
							<legend>
								<Trans>Devices (none ticked: any)</Trans>
							</legend>
							{deviceClasses.map((device) => (
								<label key={device}>
									<input
										type="checkbox"
										name="bannerDevices"
										value={device}
										defaultChecked={fields.bannerDevices.includes(device)}
									/>{' '}
									{i18n._(deviceNames[device])}
								</label>
							))}
						</fieldset>
					</div>
					<TextAreaField
						name="bannerMessage"
						label={t`Announcement text`}
						hint={t`Plain text, at most ${bannerMaxLength} characters: read at a glance.`}
						value={message}
						onChange={(event) => setMessage(event.currentTarget.value)}
						error={errors.bannerMessage}
						rows={2}
						maxLength={bannerMaxLength}
					/>
					<Field
						name="bannerLink"
						label={t`Link (optional)`}
						hint={t`Where the announcement leads: a page of this site, such as /donate, or https://…`}
						value={link}
						onChange={(event) => setLink(event.currentTarget.value)}
						error={errors.bannerLink}
						autoCapitalize="off"
						spellCheck={false}
					/>
					<Advanced count={advanced.banner_message} name="banner_message" />
					<BannerPreview message={message.trim()} link={link.trim()} />
				</fieldset>

				<fieldset className="switch">
					<legend>
						<Trans>Lists</Trans>
					</legend>
					<Field
						name="homeLatestCount"
						label={t`Latest articles on the home page`}
						hint={t`0 to 12. With 0 the home page shows the logo alone.`}
						type="number"
						min={0}
						max={12}
						defaultValue={fields.homeLatestCount}
						error={errors.homeLatestCount}
					/>
					<Advanced count={advanced.home_latest_count} name="home_latest_count" />
					<Field
						name="articlesPageSize"
						label={t`Articles per page`}
						hint={t`How many articles each page of Articles lists before “Older articles”: 1 to 50.`}
						type="number"
						min={1}
						max={50}
						defaultValue={fields.articlesPageSize}
						error={errors.articlesPageSize}
					/>
					<Advanced count={advanced.articles_page_size} name="articles_page_size" />
				</fieldset>

				<fieldset className="switch">
					<legend>
						<Trans>Reaching readers</Trans>
					</legend>
					<SwitchToggle
						name="pushPromptEnabled"
						label={t`Offer “Notify me of new articles”`}
						hint={t`On the articles list and on each article. Off: nobody new is asked; readers already subscribed still get notices.`}
						on={fields.pushPromptEnabled}
					/>
					<Advanced count={advanced.push_prompt_enabled} name="push_prompt_enabled" />
					<SwitchToggle
						name="contactFormEnabled"
						label={t`Contact form open`}
						hint={t`Off: the contact page shows the postal and email address instead, and new messages are refused (for a holiday, or a flood of spam).`}
						on={fields.contactFormEnabled}
					/>
					<Advanced count={advanced.contact_form_enabled} name="contact_form_enabled" />
				</fieldset>

				<div className="config-actions">
					<button type="submit" name="intent" value="publish" disabled={busy}>
						{busy ? t`Publishing…` : t`Publish`}
					</button>
				</div>
			</Form>
			{guard.dialog}
		</>
	)
}
