// The lines of a result a reader sees under its title: the stretch of its text where the words
// searched for are thickest, each one marked. Made here, for both databases alike, from the
// text's start; parts, never HTML, so nothing in an article can become markup.
import { foldText } from '#storage/port/search.ts'

/**
 * Whether a folded word of a text is one a search found by its stem (stems.server.ts); with
 * `firsts`, the first letters (as char codes) every such word of ASCII letters starts with; with
 * `stems`, the stems looked for (most words marked hold theirs: "forests", not "cities").
 */
export type StemMarks = ((folded: string) => boolean) & {
	firsts?: ReadonlySet<number>
	stems?: readonly string[]
}

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

type QueryWord = { word: string; prefix: boolean }

/** A blank line: where one block of Markdown ends and the next begins. */
const blankLine = /\n[ \t]*\n/
/** Characters of Markdown read after the block where the words are thickest: 28 words and more. */
const readAfter = 600
/** And before it: the few words of context a snippet starts with. */
const readBefore = 120
/** Blocks tried whose strings turned out to be parts of other words, before reading the whole text. */
const triedBlocks = 3

/**
 * The snippet for `words` (folded, as the query parser gives them): about 28 words around the
 * densest run of matches, marked; the summary (`fallback`), or the text's start, when none is
 * found (a match in the title or tags alone). `stemmed` also marks the words a search found by
 * their stems ("forests" for "forest").
 *
 * A page makes ten, from texts of up to 20,000 characters: the text is not made plain as a whole.
 * The block (between blank lines) holding the words and stems looked for most often is made plain
 * with its neighbours, and the window looked for there. The whole text is read when no block
 * holds them (a match in the title, or a word whose stem it does not hold: "city" for "citi"),
 * or when the blocks tried hold them only inside other words.
 */
export function snippet(
	markdown: string,
	words: QueryWord[],
	fallback: string,
	stemmed?: StemMarks,
): SnippetPart[] {
	const whole = () => snippetOf(plainText(markdown), words, fallback, stemmed)
	const strings = [...words.map(({ word }) => word), ...(stemmed?.stems ?? [])]
	const blocks = markdown.split(blankLine)
	if (blocks.length < 4) return whole()
	const order = blocks
		.map((block, index) => ({ count: timesHeld(block, strings), index }))
		.filter(({ count }) => count > 0)
		.sort((a, b) => b.count - a.count || a.index - b.index)
	for (const { index } of order.slice(0, triedBlocks)) {
		const near = around(blocks, index)
		const found = window(plainText(near.markdown), words, stemmed)
		if (found) return withEllipses(found, near.first || found.cut.start, near.last || found.cut.end)
	}
	return whole()
}

/** How many times a block holds `strings`, folded as the words are. */
function timesHeld(block: string, strings: string[]): number {
	// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII, control characters and all
	const folded = /^[\x00-\x7f]*$/.test(block) ? block.toLowerCase() : foldText(block)
	let count = 0
	for (const string of strings) {
		if (string === '') continue
		for (let at = folded.indexOf(string); at >= 0; at = folded.indexOf(string, at + string.length))
			count++
	}
	return count
}

/**
 * Block `index` with enough of the blocks before and after it for a snippet's window and its
 * context; whether text was left out before (`first`) or after (`last`) them.
 */
function around(
	blocks: string[],
	index: number,
): { markdown: string; first: boolean; last: boolean } {
	let from = index
	for (let length = 0; from > 0 && length < readBefore; ) length += (blocks[--from] ?? '').length
	let to = index
	for (let length = (blocks[index] ?? '').length; to < blocks.length - 1 && length < readAfter; )
		length += (blocks[++to] ?? '').length
	return {
		markdown: blocks.slice(from, to + 1).join('\n\n'),
		first: from > 0,
		last: to < blocks.length - 1,
	}
}

/** The snippet of a whole plain text: its window, or the fallback. */
function snippetOf(
	text: string,
	words: QueryWord[],
	fallback: string,
	stemmed?: StemMarks,
): SnippetPart[] {
	const found = window(text, words, stemmed)
	return found
		? withEllipses(found, found.cut.start, found.cut.end)
		: [{ text: clip(fallback || text), mark: false }]
}

/** A window's parts, with "… " before when text was left out before it, " …" after likewise. */
function withEllipses(
	found: { parts: SnippetPart[] },
	cutBefore: boolean,
	cutAfter: boolean,
): SnippetPart[] {
	return [
		...(cutBefore ? [{ text: '… ', mark: false }] : []),
		...found.parts,
		...(cutAfter ? [{ text: ' …', mark: false }] : []),
	]
}

/**
 * The window of about 28 words of a plain text with the most matches, its matches marked, and
 * whether text was left out before and after it; undefined when the text holds no match.
 */
function window(
	text: string,
	words: QueryWord[],
	stemmed?: StemMarks,
): { parts: SnippetPart[]; cut: { start: boolean; end: boolean } } | undefined {
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
	if (!hits.includes(true)) return undefined
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
	// Start a few words before the window's first match, for context, not with the words
	// before it that bring no match.
	const firstHit = hits.indexOf(true, best)
	const from = Math.max(best, firstHit - 4)
	const to = Math.min(starts.length, from + windowWords)
	// From the text's first character, or to its last, where the window holds its first or last
	// word: no "…" for a closing full stop.
	const start = from === 0 ? 0 : (starts[from] ?? 0)
	const end = to >= starts.length ? text.length : (ends[to - 1] ?? text.length)
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
	return { parts, cut: { start: start > 0, end: end < text.length } }
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
