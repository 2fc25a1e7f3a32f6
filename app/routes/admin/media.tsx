import { data, Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import { Field } from '#app/components/ui/field.tsx'
import { editorContext } from '#app/features/auth/session.server.ts'
import { imageAccept, imageTypesHint, inMegabytes } from '#app/features/uploads/image-types.ts'
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
import stylesheet from '#app/styles/admin-media.css?url'
import type { Route } from './+types/media'

// The media library: every image with its size, its versions' size, where it is used and with
// what description; upload, rename, describe, replace everywhere, delete what nothing uses.
// Plain forms: it works without JavaScript.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta() {
	return [{ title: 'Media · Canopy' }, { name: 'robots', content: 'noindex' }]
}

const hash = z.string().regex(/^[0-9a-f]{64}$/, 'Choose an image from the library.')
const intentSchema = z.discriminatedUnion('intent', [
	z.object({ intent: z.literal('upload') }),
	z.object({ intent: z.literal('replace'), hash }),
	z.object({ intent: z.literal('delete'), hash }),
	z.object({
		intent: z.literal('details'),
		hash,
		name: z.string().trim().max(200, 'Keep the name under 200 characters.'),
		alt: z.string().trim().max(300, 'Keep the description under 300 characters.'),
	}),
])

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
	const parsed = intentSchema.safeParse(Object.fromEntries(form))
	if (!parsed.success) return data({ errors: fieldErrors(parsed.error) }, 400)
	const intent = parsed.data
	if (intent.intent === 'details') {
		const saved = await services.storage.uploads.setDetails(intent.hash, {
			name: cleanName(intent.name),
			alt: intent.alt || null,
		})
		if (!saved) return data({ errors: { form: ['This image was deleted.'] } as FieldErrors }, 404)
		return { done: 'Saved.', hash: intent.hash }
	}
	if (intent.intent === 'delete') {
		const deleted = await deleteImage(services.storage, intent.hash)
		if (!deleted.ok) return data({ errors: { form: [deleted.message] } as FieldErrors }, 409)
		return { done: 'The image was deleted.', hash: null }
	}
	const file = form.get('file')
	if (!(file instanceof File) || file.size === 0)
		return data({ errors: { file: ['Choose an image file.'] } as FieldErrors }, 400)
	const stored = await storeUpload(services, new Uint8Array(await file.arrayBuffer()), {
		createdBy: context.get(editorContext).id,
		name: file.name,
	})
	if (!stored.ok) return data({ errors: { file: [stored.message] } as FieldErrors }, stored.status)
	if (intent.intent === 'upload')
		return { done: `${file.name} was added to the library.`, hash: stored.upload.hash }
	const outcome = await replaceImage(services.storage, intent.hash, stored.upload)
	const missed = outcome.missed.length
		? ` Not in ${outcome.missed.join('; ')}: edited meanwhile; replace it there by hand.`
		: ''
	return {
		done: `The new image now stands in ${outcome.replaced} ${outcome.replaced === 1 ? 'place' : 'places'}; the old one stays here, unused.${missed}`,
		hash: stored.upload.hash,
	}
}

const sizeText = (bytes: number) =>
	bytes >= 1024 * 1024
		? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
		: `${Math.ceil(bytes / 1024)} KB`

function UseItem({ use }: { use: ImageUse }) {
	const where = use.role === 'cover' ? 'cover' : use.role === 'text' ? 'in the text' : 'logo'
	return (
		<li>
			{use.articleId === null ? (
				<Link to="/admin/settings">{use.title}</Link>
			) : (
				<Link to={`/admin/articles/${use.articleId}`}>{use.title}</Link>
			)}{' '}
			<span className="media-use-role">
				({where}
				{use.status === 'draft' ? ', draft' : ''})
			</span>
			{use.role !== 'logo' ? (
				use.alt ? (
					<span className="media-use-alt"> “{use.alt}”</span>
				) : (
					<strong className="media-use-missing"> no description</strong>
				)
			) : null}
		</li>
	)
}

function MediaItem({ image, busy }: { image: LibraryEntry; busy: boolean }) {
	const label = image.name ?? 'Untitled image'
	return (
		<li className="media-item" id={`image-${image.hash.slice(0, 12)}`}>
			<a className="media-thumb" href={image.url}>
				<Picture image={image} alt={`${label}, full size`} sizes="(min-width: 36rem) 10rem, 6rem" />
			</a>
			<div className="media-facts">
				<h2>{label}</h2>
				<p>
					{image.width && image.height ? `${image.width} × ${image.height} px · ` : ''}
					{image.mime.replace('image/', '').toUpperCase()} · {sizeText(image.size)}
					{image.versionsDone
						? ` · ${image.versions} versions, ${sizeText(image.versionsSize)}`
						: ' · versions being made'}
				</p>
				{image.uses.length > 0 ? (
					<ul className="media-uses" aria-label={`Where ${label} is used`}>
						{image.uses.map((use) => (
							<UseItem key={`${use.articleId}-${use.role}-${use.alt}`} use={use} />
						))}
					</ul>
				) : (
					<p className="media-unused">Not used anywhere.</p>
				)}
				<details>
					<summary>Edit, replace or delete</summary>
					<Form method="post" className="media-details">
						<input type="hidden" name="hash" value={image.hash} />
						<Field
							name="name"
							id={`name-${image.hash}`}
							label="Name"
							defaultValue={image.name ?? ''}
							maxLength={200}
						/>
						<Field
							name="alt"
							id={`alt-${image.hash}`}
							label="Description"
							hint="Offered when the image is put in a text: what it shows."
							defaultValue={image.alt ?? ''}
							maxLength={300}
						/>
						<button type="submit" name="intent" value="details" disabled={busy}>
							Save
						</button>
					</Form>
					<Form method="post" encType="multipart/form-data" className="media-replace">
						<input type="hidden" name="hash" value={image.hash} />
						<label htmlFor={`replace-${image.hash}`}>Replace it everywhere with</label>
						<input
							id={`replace-${image.hash}`}
							name="file"
							type="file"
							accept={imageAccept}
							required
						/>
						<button type="submit" name="intent" value="replace" disabled={busy}>
							Replace
						</button>
					</Form>
					<Link className="media-delete" to={`?delete=${image.hash}`}>
						Delete {label}
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
	return (
		<>
			<h1>Media</h1>
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
					<h2 id="confirm-heading">Delete {confirm.name ?? 'this image'}?</h2>
					<p>
						{confirm.uses.length > 0
							? 'It is still used: it cannot be deleted until it is taken out of every place above, or replaced.'
							: 'Nothing uses it. Its address stops working at once.'}
					</p>
					<Form method="post" className="confirm-actions">
						<input type="hidden" name="hash" value={confirm.hash} />
						<button type="submit" name="intent" value="delete" disabled={busy}>
							Delete it
						</button>
						<Link to=".">Keep it</Link>
					</Form>
				</section>
			) : null}
			<div className="media-tools">
				<Form method="post" encType="multipart/form-data" className="media-upload">
					<label htmlFor="library-file">Add an image</label>
					<input
						id="library-file"
						name="file"
						type="file"
						accept={imageAccept}
						required
						aria-describedby="library-file-hint"
					/>
					<p id="library-file-hint" className="hint">
						{imageTypesHint(uploadMaxBytes)} Camera metadata (GPS position, device) is removed.
					</p>
					<button type="submit" name="intent" value="upload" disabled={busy}>
						Upload
					</button>
				</Form>
				<Form method="get" role="search" className="media-search">
					<label htmlFor="media-q">Search by name or description</label>
					<input id="media-q" name="q" type="search" defaultValue={search} maxLength={200} />
					<button type="submit">Search</button>
				</Form>
			</div>
			<p className="media-count">
				{search
					? `${total} ${total === 1 ? 'image' : 'images'} named like “${search}”`
					: `${total} ${total === 1 ? 'image' : 'images'}`}
				{total > 0 ? `, newest first (up to ${inMegabytes(uploadMaxBytes)} MB each).` : '.'}
			</p>
			{images.length === 0 ? (
				<p>
					{search
						? 'No image has a name like that.'
						: 'No images yet. Upload one above, or add one to an article.'}
				</p>
			) : (
				<ul className="media-list">
					{images.map((image) => (
						<MediaItem key={image.hash} image={image} busy={busy} />
					))}
				</ul>
			)}
			{pages > 1 ? (
				<nav className="media-pages" aria-label="Pages">
					{page > 1 ? <Link to={pageLink(page - 1)}>Newer images</Link> : null}
					<span>
						Page {page} of {pages}
					</span>
					{page < pages ? <Link to={pageLink(page + 1)}>Older images</Link> : null}
				</nav>
			) : null}
		</>
	)
}
