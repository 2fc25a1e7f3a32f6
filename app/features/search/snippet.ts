// The lines of a result a reader sees under its title: the stretch of its text where the words
// searched for are thickest, each one marked. Made here, for both databases alike, from the
// text's start; parts, never HTML, so nothing in an article can become markup.
import { foldText } from '#storage/port/search.ts'

/**
 * Whether a folded word of a text is one a search found by its stem (stems.server.ts); with
 * `firsts`, the first letters (as char codes) every such word of ASCII letters starts with.
 */
export type StemMarks = ((folded: string) => boolean) & { firsts?: ReadonlySet<number> }

export interface SnippetPart {
	text: string
	mark: boolean
}

const windowWords = 28
/** Letters and digits of ASCII alone: folded by lower-casing, without Unicode normalisation. */
const ascii = /^[A-Za-z0-9]*$/

/** Stands where one block ends and the next begins while the text is made plain. */
const boundary = '\u0001'
/** A heading line: a block of its own (its hashes go with the other marks). */
const heading = /^[ \t]{0,3}#{1,6}[ \t].*$/gm
/** A table's rule line (`|---|:--:|`), and a horizontal rule: nothing to read. */
const ruleLine = /^[ \t|:-]*-{3,}[ \t|:-]*$/gm
/** A table's row: a block of its own, its cells set off by middle dots. */
const tableRow = /^[ \t]*\|.*\|[ \t]*$/gm
/** Emphasis marks and tags just before punctuation: gone, so "**sea use**," is "sea use,". */
const closingMarks = /(?:[*_`~]+|<\/[a-z][a-z0-9]*>)+(?=[,.;:!?)\]])/g
/** A blank line, or the line break before a list item. */
const blockBreak = /\n[ \t]*\n|\n(?=[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t])/g
/** A list item's marker, at the start of its block. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the boundary, taken out of the text first
const listMarker = /(^|\u0001)\s*(?:[-*+]|\d{1,9}[.)])[ \t]+/g
/** The last character of a block that ends as a sentence does: nothing is needed after it. */
const sentenceEnd = /[.!?:;…。！？؟"'”’)\]]/

/**
 * Markdown as plain words: no images, link addresses, emphasis marks, heading hashes, list
 * markers, or the dashes of a table's rule or a horizontal one. A heading, a paragraph or a list
 * item that does not end as a sentence is set off from the next by a middle dot, so "Why peat
 * matters" does not read on into "Peat stores…" as one sentence. Each pattern runs once over the
 * whole text (a snippet is made for each of a page's ten results).
 */
export function plainText(markdown: string): string {
	const blocks = markdown
		.replaceAll(boundary, '')
		.replace(heading, `${boundary}$&${boundary}`)
		.replace(ruleLine, '')
		.replace(tableRow, (row) => `${boundary}${tableCells(row)}${boundary}`)
		.replace(closingMarks, '')
		.replace(blockBreak, boundary)
		.replace(listMarker, '$1')
		.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, ' ')
		.replace(/:?-{3,}:?|[=*_]{3,}/g, ' ')
		.replace(/[*_`#>~|]+/g, ' ')
		.replace(/\s+/g, ' ')
		.split(boundary)
	const parts: string[] = []
	// The last character of the block before: the text so far is never read back (a slice of a
	// string being built copies it, each time).
	let last = ''
	for (const block of blocks) {
		const words = block.trim()
		if (words === '') continue
		if (last !== '') parts.push(sentenceEnd.test(last) ? ' ' : ' · ')
		parts.push(words)
		last = words.at(-1) ?? ''
	}
	return parts.join('')
}

/** A table row's cells, each trimmed, joined by middle dots: "| a | b |" → "a · b". */
function tableCells(row: string): string {
	return row
		.trim()
		.slice(1, -1)
		.split('|')
		.map((cell) => cell.trim())
		.filter((cell) => cell !== '')
		.join(' · ')
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
	stemmed?: StemMarks,
): SnippetPart[] {
	const text = plainText(markdown)
	const { starts, ends } = tokenise(text)
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
	// Most words cannot match: one starting with an ASCII letter or digit no word searched for
	// (nor, when stems are marked, any of their stems) starts with is passed over unread. Stems
	// that may start elsewhere come without `firsts`, and every word is read.
	const firsts = stemmed
		? stemmed.firsts && new Set([...stemmed.firsts, ...words.map(({ word }) => word.charCodeAt(0))])
		: new Set(words.map(({ word }) => word.charCodeAt(0)))
	const found = starts.map((from, index) => {
		const first = text.charCodeAt(from)
		if (firsts && first < 128 && !firsts.has(first >= 65 && first <= 90 ? first + 32 : first))
			return false
		return matches(text.slice(from, ends[index]))
	})
	// A single letter or digit is marked beside another match only ("1.5°C" searched for marks
	// 1, 5 and C there), not every "1" and "C" in the text.
	const single = (index: number) => (ends[index] ?? 0) - (starts[index] ?? 0) === 1
	const hits = found.map(
		(hit, index) =>
			hit && (!single(index) || found[index - 1] === true || found[index + 1] === true),
	)
	if (!hits.includes(true)) return [{ text: clip(fallback || text), mark: false }]
	// The window of tokens with the most matches.
	let best = 0
	let bestCount = -1
	let count = 0
	for (let index = 0; index < starts.length; index++) {
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
	const to = Math.min(starts.length, from + windowWords)
	const start = starts[from] ?? 0
	const end = to > 0 ? (ends[to - 1] ?? text.length) : text.length
	const parts: SnippetPart[] = []
	let at = start
	for (let index = from; index < to; index++) {
		if (!hits[index]) continue
		const position = starts[index] ?? 0
		const after = ends[index] ?? position
		if (position > at) parts.push({ text: text.slice(at, position), mark: false })
		parts.push({ text: text.slice(position, after), mark: true })
		at = after
	}
	if (end > at) parts.push({ text: text.slice(at, end), mark: false })
	if (start > 0) parts.unshift({ text: '… ', mark: false })
	if (end < text.length) parts.push({ text: ' …', mark: false })
	return parts
}

/** Whether a code point beyond ASCII is a letter or a digit, as /[\p{L}\p{N}]/u says. */
const wordCharacter = /^[\p{L}\p{N}]$/u
const beyondAscii = new Map<number, boolean>()

function isWordCodePoint(code: number): boolean {
	if (code < 128)
		return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57)
	let known = beyondAscii.get(code)
	if (known === undefined) {
		known = wordCharacter.test(String.fromCodePoint(code))
		// The letters of a few scripts, not every code point a text could hold.
		if (beyondAscii.size < 65_536) beyondAscii.set(code, known)
	}
	return known
}

/**
 * The runs of letters and digits of a text, as /[\p{L}\p{N}]+/gu finds them, as offsets: read
 * a character at a time, without an object per word.
 */
function tokenise(text: string): { starts: number[]; ends: number[] } {
	const starts: number[] = []
	const ends: number[] = []
	let from = -1
	for (let at = 0; at < text.length; ) {
		const code = text.codePointAt(at) ?? 0
		const width = code > 0xffff ? 2 : 1
		if (isWordCodePoint(code)) {
			if (from < 0) from = at
		} else if (from >= 0) {
			starts.push(from)
			ends.push(at)
			from = -1
		}
		at += width
	}
	if (from >= 0) {
		starts.push(from)
		ends.push(text.length)
	}
	return { starts, ends }
}

function clip(text: string): string {
	return text.length > 220 ? `${text.slice(0, 220).replace(/\s+\S*$/, '')} …` : text
}
