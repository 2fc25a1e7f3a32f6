import type { I18n } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import { Field } from '#app/components/ui/field.tsx'
import { editorContext } from '#app/features/auth/session.server.ts'
import { imageAccept, inMegabytes } from '#app/features/uploads/image-types.ts'
import {
	deleteImage,
	type ImageUse,
	type LibraryEntry,
	libraryPage,
	replaceImage,
} from '#app/features/uploads/media-library.server.ts'
import { Picture } from '#app/features/uploads/picture.tsx'
import { cleanName, storeUpload } from '#app/features/uploads/uploads.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import stylesheet from '#app/styles/admin-media.css?url'
import type { Route } from './+types/media'

// The media library: every image with its size, its versions' size, where it is used and with
// what description; upload, rename, describe, replace everywhere, delete what nothing uses.
// Plain forms: it works without JavaScript.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [{ title: i18n._(msg`Media · Canopy`) }, { name: 'robots', content: 'noindex' }]
}

/** What the forms post, with its refusals in the request's language. */
function intentSchema(i18n: I18n) {
	const hash = z.string().regex(/^[0-9a-f]{64}$/, i18n._(msg`Choose an image from the library.`))
	return z.discriminatedUnion('intent', [
		z.object({ intent: z.literal('upload') }),
		z.object({ intent: z.literal('replace'), hash }),
		z.object({ intent: z.literal('delete'), hash }),
		z.object({
			intent: z.literal('details'),
			hash,
			name: z.string().trim().max(200, i18n._(msg`Keep the name under 200 characters.`)),
			alt: z.string().trim().max(300, i18n._(msg`Keep the description under 300 characters.`)),
		}),
	])
}

export async function loader({ context, request }: Route.LoaderArgs) {
	const { storage, uploadMaxBytes } = context.get(servicesContext)
	const params = new URL(request.url).searchParams
	const search = (params.get('q') ?? '').slice(0, 200)
	const page = Math.max(1, Math.floor(Number(params.get('page')) || 1))
	const library = await libraryPage(storage, { search, page })
	// ?delete=<hash> asks to confirm a deletion: a second step that needs no JavaScript.
	const confirm = library.images.find((image) => image.hash === params.get('delete')) ?? null
	return { ...library, search, page, confirm, uploadMaxBytes }
}

export async function action({ context, request }: Route.ActionArgs) {
	const services = context.get(servicesContext)
	const form = await readForm(request)
	const i18n = await requestI18n(request, context)
	const parsed = intentSchema(i18n).safeParse(Object.fromEntries(form))
	if (!parsed.success) return data({ errors: fieldErrors(parsed.error) }, 400)
	const intent = parsed.data
	if (intent.intent === 'details') {
		const saved = await services.storage.uploads.setDetails(intent.hash, {
			name: cleanName(intent.name),
			alt: intent.alt || null,
		})
		if (!saved)
			return data({ errors: { form: [i18n._(msg`This image was deleted.`)] } as FieldErrors }, 404)
		return { done: i18n._(msg`Saved.`), hash: intent.hash }
	}
	if (intent.intent === 'delete') {
		const deleted = await deleteImage(services.storage, intent.hash)
		if (!deleted.ok) return data({ errors: { form: [deleted.message] } as FieldErrors }, 409)
		return { done: i18n._(msg`The image was deleted.`), hash: null }
	}
	const file = form.get('file')
	if (!(file instanceof File) || file.size === 0)
		return data({ errors: { file: [i18n._(msg`Choose an image file.`)] } as FieldErrors }, 400)
	const stored = await storeUpload(services, new Uint8Array(await file.arrayBuffer()), {
		createdBy: context.get(editorContext).id,
		name: file.name,
	})
	if (!stored.ok) return data({ errors: { file: [stored.message] } as FieldErrors }, stored.status)
	if (intent.intent === 'upload') {
		const fileName = file.name
		const storedName = stored.upload.name ?? fileName
		if (stored.existed)
			return {
				done:
					storedName === fileName
						? i18n._(msg`${fileName} is in the library already: nothing was added.`)
						: i18n._(
								msg`${fileName} is in the library already, as ${storedName}: nothing was added.`,
							),
				hash: stored.upload.hash,
			}
		return { done: i18n._(msg`${fileName} was added to the library.`), hash: stored.upload.hash }
	}
	const outcome = await replaceImage(services.storage, intent.hash, stored.upload)
	const replaced = outcome.replaced
	const done = i18n._(
		msg`The new image now stands in ${plural(replaced, { one: '# place', other: '# places' })}; the old one stays here, unused.`,
	)
	const places = outcome.missed.join('; ')
	return {
		done: outcome.missed.length
			? `${done} ${i18n._(msg`Not in ${places}: edited meanwhile; replace it there by hand.`)}`
			: done,
		hash: stored.upload.hash,
	}
}

function sizeText(i18n: I18n, bytes: number): string {
	if (bytes >= 1024 * 1024) {
		const megabytes = i18n.number(bytes / (1024 * 1024), {
			minimumFractionDigits: 1,
			maximumFractionDigits: 1,
		})
		return i18n._(msg`${megabytes} MB`)
	}
	const kilobytes = i18n.number(Math.ceil(bytes / 1024))
	return i18n._(msg`${kilobytes} KB`)
}

function UseItem({ use }: { use: ImageUse }) {
	const { t } = useLingui()
	const where = use.role === 'cover' ? t`cover` : use.role === 'text' ? t`in the text` : t`logo`
	const alt = use.alt
	return (
		<li>
			{use.articleId === null ? (
				<Link to="/admin/settings">{use.title}</Link>
			) : (
				<Link to={`/admin/articles/${use.articleId}`}>{use.title}</Link>
			)}{' '}
			<span className="media-use-role">
				{use.status === 'draft' ? t`(${where}, draft)` : t`(${where})`}
			</span>
			{use.role !== 'logo' ? (
				alt ? (
					<span className="media-use-alt"> {t`“${alt}”`}</span>
				) : (
					<strong className="media-use-missing">
						{' '}
						<Trans>no description</Trans>
					</strong>
				)
			) : null}
		</li>
	)
}

function MediaItem({ image, busy }: { image: LibraryEntry; busy: boolean }) {
	const { t, i18n } = useLingui()
	const label = image.name ?? t`Untitled image`
	// Pixels as digits alone, as image sizes are written: "1920 × 1080 px".
	const width = image.width ? i18n.number(image.width, { useGrouping: false }) : null
	const height = image.height ? i18n.number(image.height, { useGrouping: false }) : null
	const dimensions = width && height ? t`${width} × ${height} px` : null
	const versions = image.versions
	const versionsSize = sizeText(i18n, image.versionsSize)
	return (
		<li className="media-item" id={`image-${image.hash.slice(0, 12)}`}>
			<a className="media-thumb" href={image.url}>
				<Picture
					image={image}
					alt={t`${label}, full size`}
					sizes="(min-width: 36rem) 10rem, 6rem"
				/>
			</a>
			<div className="media-facts">
				<h2>{label}</h2>
				<p>
					{dimensions ? `${dimensions} · ` : ''}
					{image.mime.replace('image/', '').toUpperCase()} · {sizeText(i18n, image.size)}
					{' · '}
					{image.versionsDone
						? t`${plural(versions, { one: '# version', other: '# versions' })}, ${versionsSize}`
						: t`versions being made`}
				</p>
				{image.uses.length > 0 ? (
					<ul className="media-uses" aria-label={t`Where ${label} is used`}>
						{image.uses.map((use) => (
							<UseItem key={`${use.articleId}-${use.role}-${use.alt}`} use={use} />
						))}
					</ul>
				) : (
					<p className="media-unused">
						<Trans>Not used anywhere.</Trans>
					</p>
				)}
				<details>
					<summary>
						<Trans>Edit, replace or delete</Trans>
					</summary>
					<Form method="post" className="form media-details">
						<input type="hidden" name="hash" value={image.hash} />
						<Field
							name="name"
							id={`name-${image.hash}`}
							label={t`Name`}
							defaultValue={image.name ?? ''}
							maxLength={200}
						/>
						<Field
							name="alt"
							id={`alt-${image.hash}`}
							label={t`Description`}
							hint={t`Offered when the image is put in a text: what it shows.`}
							defaultValue={image.alt ?? ''}
							maxLength={300}
						/>
						<button type="submit" name="intent" value="details" disabled={busy}>
							<Trans>Save</Trans>
						</button>
					</Form>
					<Form method="post" encType="multipart/form-data" className="form media-replace">
						<input type="hidden" name="hash" value={image.hash} />
						<label htmlFor={`replace-${image.hash}`}>
							<Trans>Replace it everywhere with</Trans>
						</label>
						<input
							id={`replace-${image.hash}`}
							name="file"
							type="file"
							accept={imageAccept}
							required
						/>
						<button type="submit" name="intent" value="replace" disabled={busy}>
							<Trans>Replace</Trans>
						</button>
					</Form>
					<Link className="media-delete" to={`?delete=${image.hash}`}>
						<Trans>Delete {label}</Trans>
					</Link>
				</details>
			</div>
		</li>
	)
}

export default function Media({ loaderData, actionData }: Route.ComponentProps) {
	const { images, total, pages, page, search, confirm, uploadMaxBytes } = loaderData
	const busy = useNavigation().state === 'submitting'
	const errors: FieldErrors = actionData && 'errors' in actionData ? actionData.errors : {}
	const done = actionData && 'done' in actionData ? actionData.done : null
	const pageLink = (to: number) =>
		`?${new URLSearchParams({ ...(search ? { q: search } : {}), page: String(to) })}`
	const { t } = useLingui()
	const confirmName = confirm?.name
	// image-types.ts's imageTypesHint, in the reader's language.
	const maxMegabytes = inMegabytes(uploadMaxBytes)
	/** How many images, named like what, and the size each may have. */
	const count =
		total > 0
			? search
				? t`${plural(total, { one: '# image', other: '# images' })} named like “${search}”, newest first (up to ${maxMegabytes} MB each).`
				: t`${plural(total, { one: '# image', other: '# images' })}, newest first (up to ${maxMegabytes} MB each).`
			: search
				? t`${plural(total, { one: '# image', other: '# images' })} named like “${search}”.`
				: t`${plural(total, { one: '# image', other: '# images' })}.`
	return (
		<>
			<h1>
				<Trans>Media</Trans>
			</h1>
			{done ? (
				<p role="status" className="notice">
					{done}
				</p>
			) : null}
			{errors.form || errors.file || errors.hash ? (
				<p role="alert" className="form-error">
					{[...(errors.form ?? []), ...(errors.file ?? []), ...(errors.hash ?? [])].join(' ')}
				</p>
			) : null}
			{confirm ? (
				<section className="media-confirm" aria-labelledby="confirm-heading">
					<h2 id="confirm-heading">
						{confirmName ? t`Delete ${confirmName}?` : t`Delete this image?`}
					</h2>
					<p>
						{confirm.uses.length > 0
							? t`It is still used: it cannot be deleted until it is taken out of every place above, or replaced.`
							: t`Nothing uses it. Its address stops working at once.`}
					</p>
					<Form method="post" className="confirm-actions">
						<input type="hidden" name="hash" value={confirm.hash} />
						<button type="submit" name="intent" value="delete" disabled={busy}>
							<Trans>Delete it</Trans>
						</button>
						<Link to=".">
							<Trans>Keep it</Trans>
						</Link>
					</Form>
				</section>
			) : null}
			<div className="media-tools">
				<Form method="post" encType="multipart/form-data" className="media-upload">
					<label htmlFor="library-file">
						<Trans>Add an image</Trans>
					</label>
					<input
						id="library-file"
						name="file"
						type="file"
						accept={imageAccept}
						required
						aria-describedby="library-file-hint"
					/>
					<p id="library-file-hint" className="hint">
						<Trans>
							PNG, JPEG, WebP or AVIF, up to {maxMegabytes} MB. Camera metadata (GPS position,
							device) is removed.
						</Trans>
					</p>
					<button type="submit" name="intent" value="upload" disabled={busy}>
						<Trans>Upload</Trans>
					</button>
				</Form>
				<Form method="get" role="search" className="media-search">
					<label htmlFor="media-q">
						<Trans>Search by name or description</Trans>
					</label>
					<input id="media-q" name="q" type="search" defaultValue={search} maxLength={200} />
					<button type="submit">
						<Trans>Search</Trans>
					</button>
				</Form>
			</div>
			<p className="media-count">{count}</p>
			{images.length === 0 ? (
				<p>
					{search
						? t`No image has a name like that.`
						: t`No images yet. Upload one above, or add one to an article.`}
				</p>
			) : (
				<ul className="media-list">
					{images.map((image) => (
						<MediaItem key={image.hash} image={image} busy={busy} />
					))}
				</ul>
			)}
			{pages > 1 ? (
				<nav className="media-pages" aria-label={t`Pages`}>
					{page > 1 ? (
						<Link to={pageLink(page - 1)}>
							<Trans>Newer images</Trans>
						</Link>
					) : null}
					<span>
						<Trans>
							Page {page} of {pages}
						</Trans>
					</span>
					{page < pages ? (
						<Link to={pageLink(page + 1)}>
							<Trans>Older images</Trans>
						</Link>
					) : null}
				</nav>
			) : null}
		</>
	)
}
