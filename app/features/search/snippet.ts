// The lines of a result a reader sees under its title: the stretch of its text where the words
// searched for are thickest, each one marked. Made here, for both databases alike, from the
// text's start; parts, never HTML, so nothing in an article can become markup.
import { foldText } from '#storage/port/search.ts'

export interface SnippetPart {
	text: string
	mark: boolean
}

const windowWords = 28
/** Letters and digits of ASCII alone: folded by lower-casing, without Unicode normalisation. */
const ascii = /^[A-Za-z0-9]*$/

/**
 * Markdown as plain words: no images, link addresses, emphasis marks, heading hashes, or the
 * dashes of a table's rule or a horizontal one.
 */
export function plainText(markdown: string): string {
	return markdown
		.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, ' ')
		.replace(/:?-{3,}:?|[=*_]{3,}/g, ' ')
		.replace(/[*_`#>~|]+/g, ' ')
		.replace(/\s+/g, ' ')
		.trim()
}

/**
 * The snippet for `words` (folded, as the query parser gives them): about 28 words around the
 * densest run of matches, marked; the text's start when none is found (a match in the title or
 * tags alone). `stemmed` also marks the words a search found by their stems ("forests" for
 * "forest").
 */
export function snippet(
	markdown: string,
	words: { word: string; prefix: boolean }[],
	fallback: string,
	stemmed?: (folded: string) => boolean,
): SnippetPart[] {
	const text = plainText(markdown)
	const tokens = [...text.matchAll(/[\p{L}\p{N}]+/gu)]
	// A text repeats its words: each distinct one is folded and tested once.
	const tested = new Map<string, boolean>()
	const matches = (token: string) => {
		let hit = tested.get(token)
		if (hit === undefined) {
			const folded = ascii.test(token) ? token.toLowerCase() : foldText(token)
			hit =
				words.some(({ word, prefix }) => (prefix ? folded.startsWith(word) : folded === word)) ||
				stemmed?.(folded) === true
			tested.set(token, hit)
		}
		return hit
	}
	const hits = tokens.map((token) => matches(token[0]))
	if (!hits.includes(true)) return [{ text: clip(fallback || text), mark: false }]
	// The window of tokens with the most matches.
	let best = 0
	let bestCount = -1
	let count = 0
	for (let index = 0; index < tokens.length; index++) {
		if (hits[index]) count++
		if (index >= windowWords && hits[index - windowWords]) count--
		if (count > bestCount) {
			bestCount = count
			best = Math.max(0, index - windowWords + 1)
		}
	}
	// Start a few words before the first match of the window, for context.
	const firstHit = hits.indexOf(true, best)
	const from = Math.max(0, Math.min(best, firstHit - 4))
	const to = Math.min(tokens.length, from + windowWords)
	const start = tokens[from]?.index ?? 0
	const lastToken = tokens[to - 1]
	const end = lastToken ? (lastToken.index ?? 0) + lastToken[0].length : text.length
	const parts: SnippetPart[] = []
	let at = start
	for (let index = from; index < to; index++) {
		const token = tokens[index]
		if (!token || !hits[index]) continue
		const position = token.index ?? 0
		if (position > at) parts.push({ text: text.slice(at, position), mark: false })
		parts.push({ text: token[0], mark: true })
		at = position + token[0].length
	}
	if (end > at) parts.push({ text: text.slice(at, end), mark: false })
	if (start > 0) parts.unshift({ text: '… ', mark: false })
	if (end < text.length) parts.push({ text: ' …', mark: false })
	return parts
}

function clip(text: string): string {
	return text.length > 220 ? `${text.slice(0, 220).replace(/\s+\S*$/, '')} …` : text
}
