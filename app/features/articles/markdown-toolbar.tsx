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
