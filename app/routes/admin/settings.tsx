import { data, Form, Link, useNavigation } from 'react-router'
import { Field, TextAreaField } from '#app/components/ui/field.tsx'
import { editorContext } from '#app/features/auth/session.server.ts'
import { siteSettingsSchema } from '#app/features/site/site-settings.schema.ts'
import { getSiteSettings, saveSiteSettings } from '#app/features/site/site-settings.server.ts'
import { defaultSiteSettings } from '#app/features/site/site-settings.ts'
import {
	ImageUploadField,
	imageUploadFieldStylesheet,
} from '#app/features/uploads/image-upload-field.tsx'
import { storeUpload } from '#app/features/uploads/uploads.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import settingsStylesheet from '#app/styles/admin-settings.css?url'
import type { Route } from './+types/settings'

export const links: Route.LinksFunction = () => [
	{ rel: 'stylesheet', href: imageUploadFieldStylesheet },
	{ rel: 'stylesheet', href: settingsStylesheet },
]

export function meta() {
	return [{ title: 'Site settings · Canopy' }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ context }: Route.LoaderArgs) {
	const { storage, uploadMaxBytes } = context.get(servicesContext)
	const { title, tagline, logoUrl, contactAddress } = await getSiteSettings(storage)
	return { values: { title, tagline, logoUrl, contactAddress }, uploadMaxBytes }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { storage } = context.get(servicesContext)
	let form: FormData
	try {
		form = await request.formData()
	} catch {
		const errors: FieldErrors = { form: ['The form arrived incomplete. Please send it again.'] }
		// The form shows the stored settings again.
		return data({ saved: false, values: null, errors }, 400)
	}
	const text = (key: string) => {
		const value = form.get(key)
		return typeof value === 'string' ? value : ''
	}
	const values = {
		title: text('title'),
		tagline: text('tagline'),
		logoUrl: text('logoUrl'),
		contactAddress: text('contactAddress'),
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
	if (!parsed.success) errors = { ...fieldErrors(parsed.error), ...errors }
	if (!parsed.success || Object.keys(errors).length > 0) {
		return data({ saved: false, values, errors }, 400)
	}
	await saveSiteSettings(storage, parsed.data)
	return { saved: true, values: parsed.data, errors }
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const values = actionData?.values ?? loaderData.values
	const errors: FieldErrors = actionData?.errors ?? {}
	const failed = Object.keys(errors).length > 0
	return (
		<>
			<h1>Site settings</h1>
			<p>What every visitor sees in the header, on the home page and on the contact page.</p>
			{actionData?.saved ? (
				<p role="status" className="notice">
					Settings saved. The public site shows them now: <Link to="/home">see the home page</Link>.
				</p>
			) : null}
			{failed ? (
				<p role="alert" className="form-error">
					{errors.form?.join(' ') ??
						'Nothing was saved. Check the messages under the fields below.'}
				</p>
			) : null}
			<Form method="post" encType="multipart/form-data" className="form settings-form">
				<Field
					name="title"
					label="Site title"
					defaultValue={values.title}
					error={errors.title}
					required
					maxLength={80}
				/>
				<Field
					name="tagline"
					label="Tagline"
					hint="One sentence under the logo on the home page."
					defaultValue={values.tagline}
					error={errors.tagline}
					required
					maxLength={200}
				/>
				<ImageUploadField
					maxBytes={loaderData.uploadMaxBytes}
					name="logoUrl"
					label="Logo address"
					hint={`Shown at 25 × 25 pixels in the header and larger on the home page. Upload an image below, or paste an address. Leave empty for the default logo (${defaultSiteSettings.logoUrl}).`}
					defaultValue={values.logoUrl}
					errors={errors.logoUrl}
				/>
				<TextAreaField
					name="contactAddress"
					label="Postal address"
					hint="Shown on the contact page, line by line."
					defaultValue={values.contactAddress}
					error={errors.contactAddress}
					rows={4}
					required
					maxLength={500}
				/>
				<button type="submit" disabled={busy}>
					{busy ? 'Saving…' : 'Save settings'}
				</button>
			</Form>
		</>
	)
}
