// Images into the article's Markdown: pasted, dropped on the text, or chosen with "Add an image
// to the text". Each is uploaded at once; a placeholder marks where it goes meanwhile, then it
// lands as `![](address)` with the caret between the brackets, for its description (publishing
// refuses an image without one). An optional caption goes in quotes after the address.
import { Trans, useLingui } from '@lingui/react/macro'
import {
	type ChangeEvent,
	type ClipboardEvent,
	type DragEvent,
	type RefObject,
	useEffect,
	useLayoutEffect,
	useRef,
	useState,
} from 'react'
import { imageAccept } from '#app/features/uploads/image-types.ts'
import { uploadImage } from '#app/features/uploads/upload-image.ts'

/** Markdown alt text and captions may not hold brackets or quotes unescaped. */
const markdownText = (text: string) => text.replace(/[[\]\\"]/g, '').trim()

function imageMarkdown(url: string, alt: string | null) {
	return `![${markdownText(alt ?? '')}](${url})`
}

function imageFiles(list: FileList | null | undefined): File[] {
	return [...(list ?? [])].filter((file) => file.type.startsWith('image/') || file.type === '')
}

export function useMarkdownImages({
	textarea,
	setBody,
	onInserted,
	maxBytes,
}: {
	textarea: RefObject<HTMLTextAreaElement | null>
	setBody: (update: (body: string) => string) => void
	/** The text changed without a keystroke: counts as an edit (autosave, the leave guard). */
	onInserted: () => void
	maxBytes: number
}) {
	const { t, i18n } = useLingui()
	const [status, setStatus] = useState('')
	const [error, setError] = useState('')
	const [uploading, setUploading] = useState(0)
	const counter = useRef(0)

	/**
	 * Puts `text` in a paragraph of its own (so it renders as a picture, a figure when captioned)
	 * after the line the caret is on; returns it as inserted, blank lines included.
	 */
	function insertAfterCaretLine(text: string): string {
		const value = textarea.current?.value ?? ''
		const caret = textarea.current?.selectionEnd ?? value.length
		const lineEnd = value.indexOf('\n', caret)
		const at = lineEnd < 0 ? value.length : lineEnd
		const before = value.slice(0, at)
		const lead =
			before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n'
		const after = value.slice(at)
		const trail = after.startsWith('\n\n') ? '' : after.startsWith('\n') ? '\n' : '\n\n'
		const inserted = `${lead}${text}${trail}`
		setBody((body) => `${body.slice(0, at)}${inserted}${body.slice(at)}`)
		return inserted
	}

	// The image just put in, whose brackets get the caret once the text holding it is on screen
	// (a layout effect: before the browser paints, so typing goes straight into the description).
	const [caretFor, setCaretFor] = useState<string | null>(null)
	useLayoutEffect(() => {
		const field = textarea.current
		if (!caretFor || !field) return
		const at = field.value.indexOf(caretFor)
		if (at >= 0) {
			field.focus()
			const alt = caretFor.slice(2, caretFor.indexOf(']'))
			field.setSelectionRange(at + 2, at + 2 + alt.length)
		}
		setCaretFor(null)
	}, [caretFor, textarea])

	async function add(files: File[]) {
		if (files.length === 0) return
		setError('')
		for (const file of files) {
			counter.current += 1
			const fileName = file.name
			// Brackets or quotes a translation may hold would end the Markdown early.
			const uploadingText = markdownText(
				markdownText(fileName) ? t`Uploading ${fileName}…` : t`Uploading image…`,
			)
			const placeholder = `![${uploadingText}](#uploading-${counter.current})`
			const inserted = insertAfterCaretLine(placeholder)
			onInserted()
			setUploading((n) => n + 1)
			setStatus(t`Uploading ${fileName}…`)
			const outcome = await uploadImage(file, maxBytes, i18n).catch(() => undefined)
			setUploading((n) => n - 1)
			if (!outcome?.ok) {
				setBody((body) => body.replace(inserted, ''))
				setStatus('')
				const problem = outcome?.message
				setError(
					problem === undefined
						? t`${fileName}: the upload was stopped.`
						: t({
								message: `${fileName}: ${problem}`,
								comment: 'An image’s file name, then why it was not uploaded',
							}),
				)
				continue
			}
			const markdown = imageMarkdown(outcome.upload.url, outcome.upload.alt)
			setBody((body) => body.replace(placeholder, markdown))
			onInserted()
			setStatus(
				t`${fileName} is in the text. Describe it between the brackets: what it shows, for people who cannot see it. A caption goes in quotes after the address.`,
			)
			setCaretFor(markdown)
		}
	}

	return {
		status,
		error,
		uploading: uploading > 0,
		/** Pasted images are uploaded; pasted text is left to the browser. */
		onPaste(event: ClipboardEvent<HTMLTextAreaElement>) {
			const files = imageFiles(event.clipboardData?.files)
			if (files.length === 0) return
			event.preventDefault()
			void add(files)
		},
		onDragOver(event: DragEvent<HTMLTextAreaElement>) {
			if (event.dataTransfer?.types.includes('Files')) event.preventDefault()
		},
		onDrop(event: DragEvent<HTMLTextAreaElement>) {
			const files = imageFiles(event.dataTransfer?.files)
			if (files.length === 0) return
			event.preventDefault()
			void add(files)
		},
		onChoose(event: ChangeEvent<HTMLInputElement>) {
			const input = event.currentTarget
			const files = imageFiles(input.files)
			// The files are uploaded here: the form must not post them again.
			input.value = ''
			void add(files)
		},
	}
}

/**
 * "Add an image to the text", and where the uploads' outcome is said. Shown once the page runs
 * its script: without it, images go in through the cover field and their address.
 */
export function MarkdownImagePicker({ images }: { images: ReturnType<typeof useMarkdownImages> }) {
	const picker = useRef<HTMLInputElement>(null)
	const [ready, setReady] = useState(false)
	useEffect(() => setReady(true), [])
	if (!ready) return null
	return (
		<div className="markdown-images" aria-busy={images.uploading || undefined}>
			<button
				type="button"
				className="secondary"
				onClick={() => picker.current?.click()}
				aria-describedby="body-image-hint"
			>
				<Trans>Add an image to the text</Trans>
			</button>
			<input
				ref={picker}
				type="file"
				accept={imageAccept}
				multiple
				hidden
				onChange={images.onChoose}
				data-testid="body-image-file"
			/>
			<p id="body-image-hint" className="hint">
				<Trans>Or paste an image, or drop it on the text.</Trans>
			</p>
			<p role="alert" className="field-error">
				{images.error}
			</p>
			<p role="status" className="hint">
				{images.status}
			</p>
		</div>
	)
}
