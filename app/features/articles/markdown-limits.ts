// Limits on article Markdown, checked in one pass before it is rendered. Markdown parsers do work
// that grows faster than the text for some shapes: quotes or lists nested thousands deep
// (90,000 "> " took minutes, 5,000 overflowed the stack), thousands of unclosed "[" (150,000
// took 8.7 s) and long runs of emphasis marks in one paragraph (25,000 "*a **a " took 2.9 s).
// No article needs any of these; each limit is far above what writing does.

export const maxContainerDepth = 20
export const maxBracketDepth = 200
export const maxEmphasisMarks = 2_000

/** What is wrong with the text, in words for its author; undefined when it is within the limits. */
export function markdownLimitProblem(markdown: string): string | undefined {
	let brackets = 0
	let marks = 0
	let fence = ''
	let i = 0
	while (i < markdown.length) {
		// A line: the containers it opens (quote marks, list markers), then its text.
		const opened = containersAt(markdown, i)
		if (opened.count > maxContainerDepth)
			return `The text nests quotes or lists more than ${maxContainerDepth} levels deep. Use fewer levels.`
		const end = lineEnd(markdown, opened.end)
		const fenceMark = fenceAt(markdown, opened.end)
		if (fence) {
			// Code is shown as it is: nothing in it is a link or emphasis.
			if (fenceMark.startsWith(fence)) fence = ''
		} else if (fenceMark) {
			fence = fenceMark
		} else {
			// A blank line ends a paragraph, and with it its count of emphasis marks.
			if (/^\s*$/.test(markdown.slice(opened.end, end))) marks = 0
			for (let j = opened.end; j < end; j++) {
				const char = markdown.charCodeAt(j)
				if (char === 91) {
					if (++brackets > maxBracketDepth)
						return `The text opens more than ${maxBracketDepth} square brackets without closing them. Close them, or write fewer.`
				} else if (char === 93) {
					if (brackets > 0) brackets--
				} else if ((char === 42 || char === 95) && markdown.charCodeAt(j - 1) !== char) {
					// A run of * or _ counts once.
					if (++marks > maxEmphasisMarks)
						return `A paragraph has more than ${maxEmphasisMarks.toLocaleString('en')} emphasis marks (* or _). Split it, or use fewer.`
				}
			}
		}
		i = end + 1
	}
	return undefined
}

function lineEnd(text: string, from: number): number {
	const end = text.indexOf('\n', from)
	return end === -1 ? text.length : end
}

/** The fence (``` or ~~~, three or more) a line starts with, or ''. */
function fenceAt(text: string, start: number): string {
	const char = text[start]
	if (char !== '`' && char !== '~') return ''
	let end = start
	while (text[end] === char) end++
	return end - start >= 3 ? text.slice(start, end) : ''
}

/** Counts the quote marks and list markers that open a line, and where its content starts. */
function containersAt(text: string, start: number): { count: number; end: number } {
	let i = start
	let count = 0
	for (;;) {
		while (isSpace(text.charCodeAt(i))) i++
		const char = text.charCodeAt(i)
		if (char === 62) {
			count++
			i++
			continue
		}
		if ((char === 45 || char === 42 || char === 43) && isSpace(text.charCodeAt(i + 1))) {
			count++
			i++
			continue
		}
		let digits = 0
		while (digits < 10 && isDigit(text.charCodeAt(i + digits))) digits++
		const after = text.charCodeAt(i + digits)
		if (digits > 0 && (after === 46 || after === 41) && isSpace(text.charCodeAt(i + digits + 1))) {
			count++
			i += digits + 1
			continue
		}
		return { count, end: i }
	}
}

function isSpace(char: number): boolean {
	return char === 32 || char === 9
}

function isDigit(char: number): boolean {
	return char >= 48 && char <= 57
}
