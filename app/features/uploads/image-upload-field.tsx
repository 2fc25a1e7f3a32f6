import { type ChangeEvent, useRef, useState } from 'react'
import { Field } from '#app/components/ui/field.tsx'
import { imageAccept, imageTooLargeMessage, imageTypesHint } from './image-types.ts'

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

interface UploadAnswer {
	upload?: { url: string }
	errors?: { file?: string[] }
	error?: string
}

const sessionEndedMessage =
	'You have been signed out, so the image was not uploaded. Sign in again in another tab, then choose the file again.'
const failedMessage = 'The image could not be uploaded. Check your connection and try again.'

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
	const [url, setUrl] = useState(defaultValue ?? '')
	const [busy, setBusy] = useState(false)
	const [uploadError, setUploadError] = useState('')
	const [status, setStatus] = useState('')
	const pending = useRef<AbortController | null>(null)
	const fileId = `${name}-file`
	const fileHintId = `${fileId}-hint`
	const fileErrorId = `${fileId}-error`

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
		// Checked here too only to spare sending megabytes that would be refused; the server decides.
		if (file.size > maxBytes) {
			input.value = ''
			setStatus('')
			setUploadError(imageTooLargeMessage(maxBytes))
			return
		}
		setBusy(true)
		setStatus(`Uploading ${file.name}…`)
		const body = new FormData()
		body.append('file', file)
		try {
			const response = await fetch('/admin/uploads', {
				method: 'POST',
				body,
				redirect: 'manual',
				signal: controller.signal,
			})
			const message = await problem(response, maxBytes)
			if (message) {
				setStatus('')
				setUploadError(message)
			} else {
				const answer = (await response.json()) as UploadAnswer
				use(answer.upload?.url ?? '')
				setStatus(`${file.name} uploaded. Save to use it.`)
			}
		} catch {
			if (controller.signal.aborted) return
			setStatus('')
			setUploadError(failedMessage)
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
			<label htmlFor={fileId}>Upload an image</label>
			<p id={fileHintId} className="hint">
				{imageTypesHint(maxBytes)}
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

/** What went wrong, in words for the person uploading; empty when the upload was stored. */
async function problem(response: Response, maxBytes: number): Promise<string> {
	if (response.type === 'opaqueredirect' || response.status === 401) return sessionEndedMessage
	if (response.ok) return ''
	try {
		const answer = (await response.json()) as UploadAnswer
		return answer.errors?.file?.[0] ?? answer.error ?? failedMessage
	} catch {
		return response.status === 413 ? imageTooLargeMessage(maxBytes) : failedMessage
	}
}
