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
		emDelimiter: '*',
		hr: '---',
	})
	service.use(gfm)
	// Text that showed a tag ("Use &lt;div&gt;") must stay text: Markdown would take it for HTML.
	const escapeMarkdown = service.escape.bind(service)
	service.escape = (text: string) => escapeMarkdown(text).replace(/</g, '\\<')
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
	// A bare <pre> (WordPress's classic editor writes no <code> in it) is code all the same.
	service.addRule('bareCode', {
		filter: (node) => node.nodeName === 'PRE' && !node.querySelector('code'),
		replacement(_content, node) {
			const text = (node.textContent ?? '').replace(/\n$/, '')
			const fence = text.includes('```') ? '~~~' : '```'
			return `\n\n${fence}\n${text}\n${fence}\n\n`
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
	// A <pre>'s blank lines are its own: kept out of the splitting, put back after.
	const kept: string[] = []
	const protectedHtml = html.replace(/<pre[\s>][\s\S]*?<\/pre>/gi, (block) => {
		kept.push(block)
		return `\uE000${kept.length - 1}\uE000`
	})
	return (
		protectedHtml
			// Block elements stand apart from the text around them, as wpautop treats them.
			.replace(/(<\/(?:p|div|h[1-6]|ul|ol|blockquote|table|figure|section)>)/gi, '$1\n\n')
			.replace(/(<(?:p|div|h[1-6]|ul|ol|blockquote|table|figure|section|hr)[\s>/])/gi, '\n\n$1')
			.split(/\n\s*\n/)
			.map((part) => part.trim())
			.filter(Boolean)
			.map((part) =>
				blockTag.test(part.slice(0, 200)) || /^\uE000\d+\uE000$/.test(part)
					? part
					: `<p>${part.replace(/\n/g, '<br>\n')}</p>`,
			)
			.join('\n')
			.replace(/\uE000(\d+)\uE000/g, (_whole, index: string) => kept[Number(index)] ?? '')
	)
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

/** Table rows past this make a post too slow to convert (turndown's tables grow worse than linearly). */
export const maxTableRows = 1_000

export class TooComplex extends Error {}

export function htmlToMarkdown(html: string, format: 'ghost' | 'wordpress'): ConvertedText {
	const rows = html.match(/<tr[\s>]/gi)?.length ?? 0
	if (rows > maxTableRows)
		throw new TooComplex(
			`its tables have ${rows.toLocaleString('en')} rows, more than the ${maxTableRows.toLocaleString('en')} an import converts: publish the table as a file and link it`,
		)
	const images: string[] = []
	const notes = new Set<string>()
	let source = html
	if (format === 'wordpress') {
		source = wordPressShortcodes(source, notes)
		// The block editor writes its own <p>; the classic editor's text needs them made.
		if (!source.includes('<!-- wp:')) source = wordPressParagraphs(source)
	}
	const markdown = converter(images, notes)
		.turndown(source)
		.replace(/\n{3,}/g, '\n\n')
		.trim()
	return { markdown, images, notes: [...notes] }
}

/** The Markdown with each image placeholder replaced by the address the importer chose (null: none). */
export function placeImages(markdown: string, addresses: (string | null)[]): string {
	return markdown.replace(
		/!\[((?:\\.|[^\]\\])*)\]\(canopy-import-image-(\d+)\)/g,
		(whole, alt: string, index: string) => {
			const address = addresses[Number(index)]
			if (address === undefined) return whole
			// An image that could not come across goes, rather than point nowhere.
			if (address === null) return ''
			return `![${alt}](${address.replace(/[()\s]/g, encodeURIComponent)})`
		},
	)
}

/**
 * The text of a bit of HTML, entities decoded ("It&#8217;s" → "It’s"): WordPress keeps titles and
 * excerpts so, and a summary here is plain text.
 */
export function plainText(html: string): string {
	if (!/[<&]/.test(html)) return html
	return (createDocument(`<p>${html}</p>`).body.textContent ?? '').replace(/\s+/g, ' ').trim()
}
