// Markdown by button and by keyboard: GitHub's <markdown-toolbar> element (its buttons wrap or
// prefix the selection through the browser's own editing, so Ctrl+Z undoes them and the text's
// input event runs as if typed: autosave and the preview follow), loaded in the browser only, and
// Ctrl+B, Ctrl+I and Ctrl+K (⌘ on a Mac) in the text. Arrow keys move along the toolbar.
import { Trans, useLingui } from '@lingui/react/macro'
import { type KeyboardEvent, type ReactNode, useEffect, useState } from 'react'

declare module 'react' {
	namespace JSX {
		interface IntrinsicElements {
			'markdown-toolbar': {
				for: string
				id: string
				'aria-label': string
				class?: string
				children: ReactNode
			}
			'md-bold': MarkdownButtonProps
			'md-italic': MarkdownButtonProps
			'md-header': MarkdownButtonProps & { level?: string }
			'md-link': MarkdownButtonProps
			'md-unordered-list': MarkdownButtonProps
			'md-ordered-list': MarkdownButtonProps
			'md-quote': MarkdownButtonProps
		}
	}
}

interface MarkdownButtonProps {
	/** Set here: the element's own connectedCallback is overridden by each button and never sets it. */
	role: 'button'
	'aria-label'?: string
	'aria-keyshortcuts'?: string
	class?: string
	children: ReactNode
}

const shortcuts: Record<string, string> = { b: 'md-bold', i: 'md-italic', k: 'md-link' }

/** Ctrl+B, Ctrl+I, Ctrl+K in the text: the toolbar's own buttons, pressed. */
export function markdownShortcut(event: KeyboardEvent<HTMLTextAreaElement>, toolbarId: string) {
	if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return
	const tag = shortcuts[event.key.toLowerCase()]
	const button = tag ? document.getElementById(toolbarId)?.querySelector<HTMLElement>(tag) : null
	if (!button) return
	event.preventDefault()
	button.click()
}

const listItem =
	/^(?<indent>[ \t]*)(?:(?<bullet>[-*+])|(?<number>\d{1,9})(?<delim>[.)]))(?<task> \[[ xX]\])? +/
const quoteLine = /^(?<indent>[ \t]*)> ?/

/**
 * Enter in a list item or a quoted line starts the next one, as every writing tool does ("1. First"
 * then "2. "); Enter on an empty one ends the list or the quote, its marker taken away. Typed
 * through the browser's own editing, so Undo takes it back.
 */
export function continueList(event: KeyboardEvent<HTMLTextAreaElement>): void {
	const { key, shiftKey, ctrlKey, metaKey, altKey, nativeEvent } = event
	if (key !== 'Enter' || shiftKey || ctrlKey || metaKey || altKey || nativeEvent.isComposing) return
	const field = event.currentTarget
	const { selectionStart: start, selectionEnd: end, value } = field
	if (start !== end) return
	const lineStart = value.lastIndexOf('\n', start - 1) + 1
	const lineEnd = value.indexOf('\n', start) === -1 ? value.length : value.indexOf('\n', start)
	const line = value.slice(lineStart, lineEnd)
	const marker = listItem.exec(line) ?? quoteLine.exec(line)
	// Not in a list, or the caret inside the marker itself: Enter as ever.
	if (!marker || start - lineStart < marker[0].length) return
	event.preventDefault()
	if (line.slice(marker[0].length).trim() === '') {
		field.setSelectionRange(lineStart, lineEnd)
		edit(field, '')
		return
	}
	const { indent = '', bullet, number, delim, task } = marker.groups ?? {}
	const box = task ? ' [ ]' : ''
	const next = bullet
		? `${indent}${bullet}${box} `
		: number
			? `${indent}${Number(number) + 1}${delim}${box} `
			: `${indent}> `
	edit(field, `\n${next}`)
}

/** Replaces the selection as typing would (Undo takes it back); by hand where that is gone. */
function edit(field: HTMLTextAreaElement, text: string): void {
	const done = text
		? document.execCommand('insertText', false, text)
		: document.execCommand('delete', false)
	if (done) return
	field.setRangeText(text, field.selectionStart, field.selectionEnd, 'end')
	field.dispatchEvent(new Event('input', { bubbles: true }))
}

export function MarkdownToolbar({ id, textareaId }: { id: string; textareaId: string }) {
	const { t } = useLingui()
	const [ready, setReady] = useState(false)
	useEffect(() => {
		let current = true
		// The element defines itself on import; the server has no custom elements to define.
		void import('@github/markdown-toolbar-element').then(() => {
			if (current) setReady(true)
		})
		return () => {
			current = false
		}
	}, [])
	// Without JavaScript the buttons could do nothing: they are not shown.
	if (!ready) return null
	return (
		<markdown-toolbar for={textareaId} aria-label={t`Formatting`} class="markdown-toolbar" id={id}>
			<md-bold role="button" aria-keyshortcuts="Control+B">
				<Trans>Bold</Trans>
			</md-bold>
			<md-italic role="button" aria-keyshortcuts="Control+I">
				<Trans>Italic</Trans>
			</md-italic>
			<md-header role="button" level="2">
				<Trans>Heading</Trans>
			</md-header>
			<md-link role="button" aria-keyshortcuts="Control+K">
				<Trans>Link</Trans>
			</md-link>
			<md-unordered-list role="button">
				<Trans>List</Trans>
			</md-unordered-list>
			<md-ordered-list role="button">
				<Trans>Numbered list</Trans>
			</md-ordered-list>
			<md-quote role="button">
				<Trans>Quote</Trans>
			</md-quote>
		</markdown-toolbar>
	)
}
