import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, useNavigation } from 'react-router'
import { ActionNotice } from '#app/components/ui/action-notice.tsx'
import { ErrorSummary } from '#app/components/ui/error-summary.tsx'
import { Field, schemaMessage, TextAreaField } from '#app/components/ui/field.tsx'
import { useFormLeaveGuard } from '#app/components/ui/leave-guard.tsx'
import { editorContext } from '#app/features/auth/session.server.ts'
import { siteLanguageSchema, siteSettingsSchema } from '#app/features/site/site-settings.schema.ts'
import { getSiteSettings, saveSiteSettings } from '#app/features/site/site-settings.server.ts'
import { defaultSiteSettings } from '#app/features/site/site-settings.ts'
import {
	ImageUploadField,
	imageUploadFieldStylesheet,
} from '#app/features/uploads/image-upload-field.tsx'
import { storeUpload } from '#app/features/uploads/uploads.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { interfaceLocales, localeNames } from '#app/lib/i18n.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import settingsStylesheet from '#app/styles/admin-settings.css?url'
import type { Route } from './+types/settings'

export const links: Route.LinksFunction = () => [
	{ rel: 'stylesheet', href: imageUploadFieldStylesheet },
	{ rel: 'stylesheet', href: settingsStylesheet },
]

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Site settings · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ context }: Route.LoaderArgs) {
	const { storage, uploadMaxBytes } = context.get(servicesContext)
	return {
		// Every setting is on this form.
		values: { ...(await getSiteSettings(storage)) },
		uploadMaxBytes,
		// Every zone this server knows, offered as the field is typed in.
		timeZones: Intl.supportedValuesOf('timeZone'),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const { storage } = context.get(servicesContext)
	let form: FormData
	try {
		form = await request.formData()
	} catch {
		const i18n = await requestI18n(request, context)
		const errors: FieldErrors = {
			form: [i18n._(msg`The form arrived incomplete. Please send it again.`)],
		}
		// The form shows the stored settings again.
		return data({ saved: false, values: null, errors }, 400)
	}
	const text = (key: string) => {
		const value = form.get(key)
		return typeof value === 'string' ? value : ''
	}
	const stored = await getSiteSettings(storage)
	// A form without the contact page's email and introduction (an older page, a script) leaves
	// them as they are, as it does the language fields.
	const kept = (key: 'contactEmail' | 'contactIntro') => (form.has(key) ? text(key) : stored[key])
	const values = {
		title: text('title'),
		tagline: text('tagline'),
		logoUrl: text('logoUrl'),
		contactEmail: kept('contactEmail'),
		contactAddress: text('contactAddress'),
		contactIntro: kept('contactIntro'),
		language: text('language'),
		languages: form
			.getAll('languages')
			.filter((value) => typeof value === 'string')
			.join(','),
		timeZone: text('timeZone'),
	}
	let errors: FieldErrors = {}
	// Without JavaScript the logo's file comes with the form instead of ahead of it.
	const file = form.get('logoUrlFile')
	if (file instanceof File && file.size > 0) {
		const bytes = new Uint8Array(await file.arrayBuffer())
		const stored = await storeUpload(context.get(servicesContext), bytes, {
			createdBy: context.get(editorContext).id,
			name: file.name,
		})
		if (stored.ok) values.logoUrl = stored.upload.url
		else errors.logoUrl = [stored.message]
	}
	const parsed = siteSettingsSchema.safeParse(values)
	// A form without the language fields (an older page, a script) leaves them as they are.
	const languages = form.has('language')
		? siteLanguageSchema.safeParse({
				...values,
				languages: values.languages ? values.languages.split(',') : [],
			})
		: undefined
	if (!parsed.success) errors = { ...fieldErrors(parsed.error), ...errors }
	if (languages && !languages.success) errors = { ...fieldErrors(languages.error), ...errors }
	if (!parsed.success || languages?.success === false || Object.keys(errors).length > 0) {
		return data({ saved: false, values, errors }, 400)
	}
	const saved = {
		...parsed.data,
		...(languages?.data ?? {
			language: stored.language,
			languages: stored.languages,
			timeZone: stored.timeZone,
		}),
	}
	await saveSiteSettings(storage, saved)
	return { saved: true, values: saved, errors }
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const values = actionData?.values ?? loaderData.values
	const errors: FieldErrors = actionData?.errors ?? {}
	const failed = Object.keys(errors).length > 0
	const { t, i18n } = useLingui()
	// Changes not saved yet: leaving asks first. A refused save leaves them unsaved still.
	const guard = useFormLeaveGuard(actionData && !actionData.saved ? actionData : undefined)
	const defaultLogo = defaultSiteSettings.logoUrl
	const offeredErrors =
		errors.languages ?? Object.entries(errors).find(([key]) => key.startsWith('languages.'))?.[1]
	return (
		<>
			<h1>
				<Trans>Site settings</Trans>
			</h1>
			<p>
				<Trans>
					What every visitor sees in the header, on the home page and on the contact page.
				</Trans>
			</p>
			{actionData?.saved ? (
				<ActionNotice answer={actionData}>
					<Trans>
						Settings saved. The public site shows them now:{' '}
						<Link to="/home">see the home page</Link>.
					</Trans>
				</ActionNotice>
			) : null}
			{failed ? (
				<ErrorSummary
					errors={errors}
					labels={{
						title: t`Site title`,
						tagline: t`Tagline`,
						logoUrl: t`Logo address`,
						contactEmail: t`Contact email`,
						contactIntro: t`Introduction`,
						contactAddress: t`Postal address`,
						language: t`The site’s language`,
						languages: t`Also offer the interface in`,
						timeZone: t`Time zone`,
					}}
					title={t`Nothing was saved. Change what is said below, then save again.`}
				/>
			) : null}
			<Form
				method="post"
				encType="multipart/form-data"
				className="form settings-form"
				// A file chosen changes nothing until it is uploaded: the logo's field then changes
				// (ImageUploadField's onChange); a refused file leaves the form as it was.
				{...guard.form}
			>
				<Field
					name="title"
					label={t`Site title`}
					defaultValue={values.title}
					error={errors.title}
					required
					maxLength={80}
				/>
				<Field
					name="tagline"
					label={t`Tagline`}
					hint={t`One sentence under the logo on the home page.`}
					defaultValue={values.tagline}
					error={errors.tagline}
					required
					maxLength={200}
				/>
				<ImageUploadField
					maxBytes={loaderData.uploadMaxBytes}
					name="logoUrl"
					label={t`Logo address`}
					hint={t`Shown at 25 × 25 pixels in the header and larger on the home page. Upload an image below, or paste an address. Leave empty for the default logo (${defaultLogo}).`}
					defaultValue={values.logoUrl}
					errors={errors.logoUrl}
					onChange={() => guard.markDirty(true)}
				/>
				<fieldset className="settings-contact">
					<legend>
						<Trans>Contact page</Trans>
					</legend>
					<Field
						name="contactEmail"
						type="email"
						label={t`Contact email`}
						hint={t`Shown on the contact page. Messages sent with the contact form are forwarded to it when the site can send mail.`}
						defaultValue={values.contactEmail}
						error={errors.contactEmail}
						required
						maxLength={254}
						autoComplete="off"
					/>
					<TextAreaField
						name="contactIntro"
						label={t`Introduction`}
						hint={t`A few words at the top of the contact page. Leave empty for none.`}
						defaultValue={values.contactIntro}
						error={errors.contactIntro}
						rows={3}
						maxLength={500}
					/>
					<TextAreaField
						name="contactAddress"
						label={t`Postal address`}
						hint={t`Shown on the contact page, line by line.`}
						defaultValue={values.contactAddress}
						error={errors.contactAddress}
						rows={4}
						required
						maxLength={500}
					/>
				</fieldset>
				<fieldset className="settings-languages">
					<legend>
						<Trans>Language and time</Trans>
					</legend>
					<label htmlFor="language">
						<Trans>The site’s language</Trans>
					</label>
					<p className="hint" id="settings-language-hint">
						<Trans>
							What readers get when the site does not offer any of their browser’s languages, and
							the language of articles that do not name one.
						</Trans>
					</p>
					<select
						id="language"
						name="language"
						defaultValue={values.language}
						aria-describedby="settings-language-hint"
					>
						{interfaceLocales.map((code) => (
							<option key={code} value={code} lang={code}>
								{localeNames[code]}
							</option>
						))}
					</select>
					{errors.language ? (
						<p className="field-error">{schemaMessage(i18n, errors.language.join(' '))}</p>
					) : null}
					{/* Focusable, so the error summary's link takes a keyboard here. */}
					<fieldset className="settings-offered" id="languages" tabIndex={-1}>
						<legend>
							<Trans>Also offer the interface in</Trans>
						</legend>
						<p className="hint">
							<Trans>
								Readers get the first of their browser’s languages the site offers, and a language
								switcher at the foot of every page.
							</Trans>
						</p>
						{interfaceLocales.map((code) => (
							<div key={code} className="checkbox-row">
								<input
									type="checkbox"
									id={`settings-offer-${code}`}
									name="languages"
									value={code}
									defaultChecked={values.languages.split(',').includes(code)}
								/>
								<label htmlFor={`settings-offer-${code}`} lang={code}>
									{localeNames[code]}
								</label>
							</div>
						))}
						{offeredErrors ? (
							<p className="field-error">{schemaMessage(i18n, offeredErrors.join(' '))}</p>
						) : null}
					</fieldset>
					<Field
						name="timeZone"
						label={t`Time zone`}
						hint={t`Dates and times on the site are shown in this zone, e.g. Europe/Madrid.`}
						defaultValue={values.timeZone}
						error={errors.timeZone}
						list="settings-time-zones"
						required
						maxLength={64}
						autoComplete="off"
					/>
					<datalist id="settings-time-zones">
						{loaderData.timeZones.map((zone) => (
							<option key={zone} value={zone} />
						))}
					</datalist>
				</fieldset>
				<button type="submit" disabled={busy}>
					{busy ? t`Saving…` : t`Save settings`}
				</button>
			</Form>
			{guard.dialog}
		</>
	)
}
