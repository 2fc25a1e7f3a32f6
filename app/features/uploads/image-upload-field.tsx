import { Trans, useLingui } from '@lingui/react/macro'
import { type ChangeEvent, useEffect, useRef, useState } from 'react'
import { Field } from '#app/components/ui/field.tsx'
import { imageAccept, inMegabytes } from './image-types.ts'
import { uploadImage } from './upload-image.ts'

/** Routes that render the field link this stylesheet. */
export { default as imageUploadFieldStylesheet } from '#app/styles/admin-images.css?url'

interface ImageUploadFieldProps {
	name: string
	label: string
	defaultValue?: string | null
	errors?: string[]
	hint?: string
	onChange?: (url: string) => void
	/** The largest upload the server takes (UPLOAD_MAX_MB), from the page's loader. */
	maxBytes: number
}

/**
 * An image's address in a text field (so the form works without JavaScript: paste a URL), with a
 * file picker that uploads the chosen image and fills the address in. The picker is named
 * `${name}File`: without JavaScript a multipart form carries the file itself, for the action to
 * store with storeImage. The thumbnail is decorative: the caller renders the alt-text field.
 */
export function ImageUploadField({
	name,
	label,
	defaultValue,
	errors,
	hint,
	onChange,
	maxBytes,
}: ImageUploadFieldProps) {
	const { t, i18n } = useLingui()
	const [url, setUrl] = useState(defaultValue ?? '')
	const [busy, setBusy] = useState(false)
	const [uploadError, setUploadError] = useState('')
	const [status, setStatus] = useState('')
	const pending = useRef<AbortController | null>(null)
	const fileId = `${name}-file`
	const fileHintId = `${fileId}-hint`
	const fileErrorId = `${fileId}-error`

	// Saved: the address the form was given back is the one uploaded, and "save to use it" is
	// news no more.
	const saved = defaultValue ?? ''
	useEffect(() => {
		if (saved === url) setStatus('')
	}, [saved, url])

	function use(next: string) {
		setUrl(next)
		onChange?.(next)
	}

	async function upload(event: ChangeEvent<HTMLInputElement>) {
		const input = event.currentTarget
		const file = input.files?.[0]
		if (!file) return
		pending.current?.abort()
		const controller = new AbortController()
		pending.current = controller
		setUploadError('')
		setBusy(true)
		const fileName = file.name
		setStatus(t`Uploading ${fileName}…`)
		try {
			const outcome = await uploadImage(file, maxBytes, i18n, controller.signal)
			if (!outcome.ok) {
				setStatus('')
				setUploadError(outcome.message)
			} else {
				use(outcome.upload.url)
				setStatus(t`${fileName} uploaded. Save to use it.`)
			}
		} catch {
			// Aborted: another file was chosen meanwhile.
		} finally {
			if (pending.current === controller) {
				pending.current = null
				setBusy(false)
				// Uploaded or refused, the file must not be posted again with the form.
				input.value = ''
			}
		}
	}

	const thumbnail = /^(\/(?![/\\])|https:\/\/)/.test(url) ? url : ''
	const megabytes = i18n.number(inMegabytes(maxBytes))
	return (
		<div className="image-upload" aria-busy={busy || undefined}>
			<Field
				name={name}
				label={label}
				hint={hint}
				error={errors}
				value={url}
				onChange={(event) => use(event.currentTarget.value)}
				autoComplete="off"
				spellCheck={false}
			/>
			{thumbnail ? (
				<img className="image-upload-preview" src={thumbnail} alt="" width={96} height={96} />
			) : null}
			{/* Named after its field: a form may hold several (the cover, the image for shared links). */}
			<label htmlFor={fileId}>
				<Trans>
					Upload an image<span className="visually-hidden"> ({label})</span>
				</Trans>
			</label>
			<p id={fileHintId} className="hint">
				<Trans>PNG, JPEG, WebP or AVIF, up to {megabytes} MB.</Trans>
			</p>
			<input
				id={fileId}
				name={`${name}File`}
				type="file"
				accept={imageAccept}
				onChange={upload}
				aria-invalid={uploadError ? true : undefined}
				aria-describedby={`${fileHintId} ${fileErrorId}`}
			/>
			<p id={fileErrorId} role="alert" className="field-error">
				{uploadError}
			</p>
			<p role="status" className="hint">
				{status}
			</p>
		</div>
	)
}
