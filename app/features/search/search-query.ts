// A reader's search text as a query both databases run safely: words (the last one also as the
// start of a longer word), "quoted phrases", -excluded words and OR between alternatives; any
// other character is a space. Nothing a reader types reaches FTS5's or tsquery's syntax: only
// the folded words this returns (docs/decisions/030-search.md).
import { type SearchPhrase, type SearchQuery, searchWords } from '#storage/port/search.ts'

/** Clauses beyond these are dropped: no one means twenty words at once. */
const maxClauses = 8
const maxWordsPerPhrase = 8

type Token = { kind: 'phrase'; words: string[] } | { kind: 'word'; word: string; not: boolean }

function tokens(text: string): (Token | 'OR')[] {
	const found: (Token | 'OR')[] = []
	for (const match of text.matchAll(/(-?)"([^"]*)"?|(\S+)/g)) {
		const [, minus, quoted, bare] = match
		if (quoted !== undefined) {
			const words = searchWords(quoted).slice(0, maxWordsPerPhrase)
			if (words.length === 0) continue
			if (minus) for (const word of words) found.push({ kind: 'word', word, not: true })
			else found.push({ kind: 'phrase', words })
			continue
		}
		if (bare === 'OR' || bare === '|') {
			found.push('OR')
			continue
		}
		const not = bare?.startsWith('-') === true && bare.length > 1
		const words = searchWords(bare ?? '')
		// "e-mail" or "co2/ch4" are several words: a phrase, as the index splits them.
		if (words.length > 1 && !not) found.push({ kind: 'phrase', words })
		else for (const word of words) found.push({ kind: 'word', word, not })
	}
	return found
}

/**
 * The query the text asks, or null when it holds no word to look for (empty, only punctuation,
 * only exclusions). The last word typed also matches as a prefix, so "peat" finds "peatlands".
 */
export function parseQuery(text: string): SearchQuery | null {
	const all: SearchPhrase[][] = []
	const none: SearchPhrase[] = []
	let joinNext = false
	const list = tokens(text)
	list.forEach((token, index) => {
		if (token === 'OR') {
			joinNext = all.length > 0
			return
		}
		if (token.kind === 'word' && token.not) {
			none.push({ words: [token.word], prefix: false })
			return
		}
		const last = index === list.length - 1
		const phrase: SearchPhrase =
			token.kind === 'phrase'
				? { words: token.words, prefix: false }
				: { words: [token.word], prefix: last && token.word.length >= 2 }
		const previous = all.at(-1)
		if (joinNext && previous) previous.push(phrase)
		else all.push([phrase])
		joinNext = false
	})
	if (all.length === 0) return null
	return { all: all.slice(0, maxClauses), none: none.slice(0, maxClauses) }
}

/** Every word the query looks for, for marking them in results. */
export function queryWords(query: SearchQuery): { word: string; prefix: boolean }[] {
	return query.all.flatMap((clause) =>
		clause.flatMap((phrase) =>
			phrase.words.map((word, index) => ({
				word,
				prefix: phrase.prefix && index === phrase.words.length - 1,
			})),
		),
	)
}
