// Ghost's and WordPress's HTML as the Markdown Canopy's editor keeps (decision 034): turndown with
// GitHub's extensions (tables, strikethrough, task lists), a few rules for what those systems'
// editors write (Ghost's cards, WordPress's shortcodes and unwrapped paragraphs), and every image
// left as a numbered placeholder for the importer to fill with the address it re-hosted it at.
import { gfm } from '@joplin/turndown-plugin-gfm'
import { createDocument } from '@mixmark-io/domino'
import TurndownService from 'turndown'

/** HTML past this is not converted (a post's text in Canopy is at most 200,000 characters). */
export const maxHtmlLength = 2_000_000

export interface ConvertedText {
	/** Images appear as `canopy-import-image-N`, N the index in `images`. */
	markdown: string
	/** The images' addresses as the HTML has them, in order. */
	images: string[]
	/** What did not come across (an embedded form, a gallery shortcode). */
	notes: string[]
}

const placeholder = (index: number) => `canopy-import-image-${index}`

function escapeAlt(alt: string): string {
	return alt.replace(/\s+/g, ' ').replace(/([\\[\]])/g, '\\$1')
}

/** A service per conversion: its rules write into that conversion's lists. */
function converter(images: string[], notes: Set<string>): TurndownService {
	const service = new TurndownService({
		headingStyle: 'atx',
		codeBlockStyle: 'fenced',
		bulletListMarker: '-',
		emDelimiter: '_',
		hr: '---',
	})
	service.use(gfm)
	service.remove(['script', 'style', 'noscript', 'template', 'head'])
	service.addRule('image', {
		filter: 'img',
		replacement(_content, node) {
			const element = node as HTMLElement
			const src = element.getAttribute('src')?.trim()
			if (!src || src.startsWith('data:')) return ''
			images.push(src)
			return `![${escapeAlt(element.getAttribute('alt') ?? '')}](${placeholder(images.length - 1)})`
		},
	})
	// Ghost's bookmark card: a link with a title, a description and an icon, made one link.
	service.addRule('ghostBookmark', {
		filter: (node) => node.nodeName === 'FIGURE' && node.classList.contains('kg-bookmark-card'),
		replacement(_content, node) {
			const element = node as HTMLElement
			const link = element.querySelector('a')
			const href = link?.getAttribute('href')
			if (!href) return ''
			const title =
				element.querySelector('.kg-bookmark-title')?.textContent?.trim() || link?.textContent
			return `\n\n[${escapeAlt(title?.trim() || href)}](${href})\n\n`
		},
	})
	// Video and map embeds: a link to what was embedded, which the reader can follow.
	service.addRule('embed', {
		filter: ['iframe', 'video', 'audio', 'embed', 'object'],
		replacement(_content, node) {
			const element = node as HTMLElement
			const src =
				element.getAttribute('src') ?? element.querySelector('source')?.getAttribute('src')
			if (!src || !/^https?:\/\//.test(src)) {
				notes.add('an embedded player without an address was left out')
				return ''
			}
			const title = element.getAttribute('title')?.trim() || src
			return `\n\n[${escapeAlt(title)}](${src})\n\n`
		},
	})
	// One space after a list's marker, and what follows indented to match (turndown's own: three).
	service.addRule('listItem', {
		filter: 'li',
		replacement(content, node, options) {
			const parent = node.parentNode as HTMLElement | null
			let marker = `${options.bulletListMarker} `
			if (parent?.nodeName === 'OL') {
				const start = Number(parent.getAttribute('start') ?? 1) || 1
				marker = `${start + Array.prototype.indexOf.call(parent.children, node)}. `
			}
			const body = content
				.replace(/^\n+/, '')
				.replace(/\n+$/, '\n')
				.replace(/\n/gm, `\n${' '.repeat(marker.length)}`)
			return marker + body + (node.nextSibling && !/\n$/.test(body) ? '\n' : '')
		},
	})
	service.addRule('form', {
		filter: (node) =>
			['FORM', 'BUTTON', 'SELECT', 'TEXTAREA'].includes(node.nodeName) ||
			// A task list's checkbox is GFM's [x], written by the plugin's own rule.
			(node.nodeName === 'INPUT' &&
				!((node as HTMLInputElement).type === 'checkbox' && node.parentNode?.nodeName === 'LI')),
		replacement() {
			notes.add('a form (a signup or a search box) was left out')
			return ''
		},
	})
	return service
}

const blockTag =
	/<(p|div|h[1-6]|ul|ol|li|blockquote|pre|table|figure|hr|section|article|header|footer)[\s>/]/i

/**
 * WordPress's classic editor stores paragraphs as blank lines and line breaks as newlines, made
 * into <p> and <br> only when a page is shown (wpautop); HTML reads them as spaces.
 */
function wordPressParagraphs(html: string): string {
	return html
		.split(/\n\s*\n/)
		.map((part) => part.trim())
		.filter(Boolean)
		.map((part) =>
			blockTag.test(part.slice(0, 200)) ? part : `<p>${part.replace(/\n/g, '<br>\n')}</p>`,
		)
		.join('\n')
}

/**
 * WordPress's shortcodes: a caption keeps its image and text; an embed becomes its address; the
 * rest (galleries, forms of plugins) are named in the notes and dropped.
 */
function wordPressShortcodes(html: string, notes: Set<string>): string {
	return html
		.replace(/\[caption[^\]]*\]([\s\S]*?)\[\/caption\]/g, '$1')
		.replace(/\[embed[^\]]*\]\s*(https?:\/\/[^\s[]+)\s*\[\/embed\]/g, '<p><a href="$1">$1</a></p>')
		.replace(/\[(\/?)([a-z][\w-]*)([^\]]*)\]/g, (whole, closing: string, name: string) => {
			// A bracketed word in prose ("[sic]") is no shortcode WordPress knew of either.
			if (
				!/^(gallery|audio|video|playlist|contact-form[\w-]*|gravityform|wpforms|ninja_form|shortcode)$/.test(
					name,
				)
			)
				return whole
			if (!closing) notes.add(`a [${name}] shortcode was left out`)
			return ''
		})
}

export function htmlToMarkdown(html: string, format: 'ghost' | 'wordpress'): ConvertedText {
	const images: string[] = []
	const notes = new Set<string>()
	let source = html
	if (format === 'wordpress') {
		source = wordPressShortcodes(source, notes)
		if (!blockTag.test(source)) source = wordPressParagraphs(source)
		else if (!/<p[\s>]/i.test(source)) source = wordPressParagraphs(source)
	}
	const markdown = converter(images, notes)
		.turndown(source)
		.replace(/\n{3,}/g, '\n\n')
		.trim()
	return { markdown, images, notes: [...notes] }
}

/** The Markdown with each image placeholder replaced by the address the importer chose. */
export function placeImages(markdown: string, addresses: string[]): string {
	return markdown.replace(/canopy-import-image-(\d+)/g, (whole, index: string) => {
		const address = addresses[Number(index)]
		return address === undefined ? whole : address.replace(/[()\s]/g, encodeURIComponent)
	})
}

/**
 * The text of a bit of HTML, entities decoded ("It&#8217;s" → "It’s"): WordPress keeps titles and
 * excerpts so, and a summary here is plain text.
 */
export function plainText(html: string): string {
	if (!/[<&]/.test(html)) return html
	return (createDocument(`<p>${html}</p>`).body.textContent ?? '').replace(/\s+/g, ' ').trim()
}
