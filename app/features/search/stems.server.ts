// Stems for search (docs/decisions/030-search.md, "Stems"): Snowball stemmers from
// @orama/stemmers, run by the site so both databases match alike ("forests" finds "forest",
// "bosques" finds "bosque", "леса" finds "лес"). An article's stems are made in its own language;
// a reader's words are stemmed in every language the site's content is in. Each language's
// stemmer is loaded the first time it is needed, on the server only.
import { getSiteSettings } from '#app/features/site/site-settings.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import {
	type ArticleStems,
	foldText,
	type SearchPhrase,
	type SearchQuery,
} from '#storage/port/search.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { StemMarks } from './snippet.ts'

type Stemmer = (word: string) => string

/**
 * BCP 47 primary language subtags → @orama/stemmers' entry points (Snowball's algorithms).
 * Bulgarian's is left out: 3.1.18's writes into the string it is given, which throws on
 * ordinary words ("зелен", "гласи").
 */
const loaders: Record<string, () => Promise<{ stemmer: Stemmer }>> = {
	ar: () => import('@orama/stemmers/arabic'),
	da: () => import('@orama/stemmers/danish'),
	de: () => import('@orama/stemmers/german'),
	el: () => import('@orama/stemmers/greek'),
	en: () => import('@orama/stemmers/english'),
	es: () => import('@orama/stemmers/spanish'),
	fi: () => import('@orama/stemmers/finnish'),
	fr: () => import('@orama/stemmers/french'),
	ga: () => import('@orama/stemmers/irish'),
	hi: () => import('@orama/stemmers/indian'),
	hu: () => import('@orama/stemmers/hungarian'),
	hy: () => import('@orama/stemmers/armenian'),
	id: () => import('@orama/stemmers/indonesian'),
	it: () => import('@orama/stemmers/italian'),
	lt: () => import('@orama/stemmers/lithuanian'),
	nb: () => import('@orama/stemmers/norwegian'),
	ne: () => import('@orama/stemmers/nepali'),
	nl: () => import('@orama/stemmers/dutch'),
	nn: () => import('@orama/stemmers/norwegian'),
	no: () => import('@orama/stemmers/norwegian'),
	pt: () => import('@orama/stemmers/portuguese'),
	ro: () => import('@orama/stemmers/romanian'),
	ru: () => import('@orama/stemmers/russian'),
	sr: () => import('@orama/stemmers/serbian'),
	sv: () => import('@orama/stemmers/swedish'),
	ta: () => import('@orama/stemmers/tamil'),
	tr: () => import('@orama/stemmers/turkish'),
	uk: () => import('@orama/stemmers/ukrainian'),
}

const loaded = new Map<string, Promise<Stemmer | undefined>>()

/** A stemmer that gives a word it fails on back as it is: a search never fails on one. */
function guarded(stemmer: Stemmer): Stemmer {
	return (word) => {
		try {
			return stemmer(word)
		} catch {
			return word
		}
	}
}

/** The stemmer for a language tag ('pt-BR' → Portuguese), or undefined when there is none. */
export function stemmerFor(language: string): Promise<Stemmer | undefined> {
	const code = primaryTag(language)
	let stemmer = loaded.get(code)
	if (!stemmer) {
		const load = loaders[code]
		stemmer = load ? load().then((module) => guarded(module.stemmer)) : Promise.resolve(undefined)
		loaded.set(code, stemmer)
	}
	return stemmer
}

/** A language tag's primary subtag, lower case: 'pt-BR' → 'pt'. */
function primaryTag(tag: string): string {
	return tag.toLowerCase().split('-')[0] ?? ''
}

/** The stemmers of those of `languages` that have one. */
async function stemmersFor(languages: string[]): Promise<Stemmer[]> {
	return (await Promise.all(languages.map(stemmerFor))).filter(
		(stemmer): stemmer is Stemmer => stemmer !== undefined,
	)
}

/** Words shorter than this are kept as they are: stemming "us" or "as" only confuses. */
const shortest = 3
/**
 * A reader's word's stem in a language other than the site's is looked for only from this length:
 * a shorter one is mostly another language's little word ("fore" is "for" to Spanish's stemmer,
 * "sea" "se" to French's), found in nearly every article in that language or in English.
 */
const shortForeignStem = 4
/** Stems kept per article: a long text's rarest words past this add little and cost space. */
const maxStems = 20_000

/**
 * The stems of a word, folded as the index keeps words: the stem of the folded word, and the
 * folded stem of the word as written (Snowball's rules for "-ción" or "-ières" need the accent).
 * Only stems that differ from the folded word: the word itself is in the index already.
 */
function wordStems(stemmer: Stemmer, raw: string, folded: string, into: Set<string>): void {
	if (folded.length < shortest) return
	const plain = stemmer(folded)
	if (plain && plain !== folded) into.add(plain)
	if (raw !== folded) {
		const accented = foldText(stemmer(raw))
		if (accented && accented !== folded) into.add(accented)
	}
}

/**
 * An article's stems, space-separated, in `language`'s stemmer: what the index's stems column
 * (SQLite) or weight-D words (PostgreSQL) hold. '' for a language with no stemmer.
 */
export async function textStems(texts: string[], language: string): Promise<string> {
	const stemmer = await stemmerFor(language)
	if (!stemmer) return ''
	const stems = new Set<string>()
	const seen = new Set<string>()
	for (const text of texts)
		for (const match of text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
			const raw = match[0].toLowerCase()
			if (seen.has(raw)) continue
			seen.add(raw)
			// A word the index splits further (letters joined by marks it drops) is stemmed as
			// the index's words are.
			for (const folded of foldText(raw).match(/[\p{L}\p{N}]+/gu) ?? [])
				wordStems(stemmer, raw, folded, stems)
			if (stems.size >= maxStems) return [...stems].join(' ')
		}
	return [...stems].join(' ')
}

/**
 * The query with each single word's stems in `languages` added as alternatives ("forests" also
 * as "forest"); phrases and excluded words stay exact. `text` is what the reader typed: a
 * word's accents, which the query's folded words have lost, help some languages' rules.
 */
export async function withStems(
	query: SearchQuery,
	text: string,
	languages: string[],
): Promise<SearchQuery> {
	const stemmers = await stemmersFor(languages)
	if (stemmers.length === 0) return query
	// The site's language's stemmer (contentLanguages puts it first), whose short stems count.
	const own = languages[0] === undefined ? undefined : await stemmerFor(languages[0])
	const written = new Map<string, string>()
	for (const match of text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
		const raw = match[0].toLowerCase()
		written.set(foldText(raw), raw)
	}
	const stemmed = (phrase: SearchPhrase): SearchPhrase => {
		const [word] = phrase.words
		if (phrase.words.length !== 1 || word === undefined) return phrase
		const stems = new Set<string>()
		for (const stemmer of stemmers) {
			const found = new Set<string>()
			wordStems(stemmer, written.get(word) ?? word, word, found)
			for (const stem of found)
				if (stemmer === own || stem.length >= shortForeignStem) stems.add(stem)
		}
		return stems.size > 0 ? { ...phrase, stems: [...stems] } : phrase
	}
	return { all: query.all.map((clause) => clause.map(stemmed)), none: query.none }
}

/**
 * What a snippet marks besides the words themselves: a word of the text whose stem, in one of
 * `languages`' stemmers, is a word the query looks for or one of its stems ("forests" for a
 * search for "forest"). Undefined when no language has a stemmer.
 */
export async function stemMatcher(
	query: SearchQuery,
	languages: string[],
): Promise<StemMarks | undefined> {
	const stemmers = await stemmersFor(languages)
	const wanted = new Set(
		query.all.flatMap((clause) =>
			clause.flatMap((phrase) =>
				phrase.words.length === 1 ? [...phrase.words, ...(phrase.stems ?? [])] : [],
			),
		),
	)
	if (stemmers.length === 0 || wanted.size === 0) return undefined
	// A word is stemmed only when it holds a wanted stem's first letters: most of a text's words
	// never are.
	const starts = [...wanted].map((stem) => stem.slice(0, 2))
	const marks: StemMarks = (folded) => {
		if (folded.length < shortest || !starts.some((start) => folded.includes(start))) return false
		return stemmers.some((stemmer) => wanted.has(stemmer(folded)))
	}
	marks.stems = [...wanted]
	// The Latin-script languages whose stemmers take a word's start too (Irish's mutations,
	// Indonesian's prefixes) aside, a word of Latin letters keeps its first letter in its stem.
	if (!languages.some((tag) => prefixStrippers.has(primaryTag(tag))))
		marks.firsts = new Set([...wanted].map((stem) => stem.charCodeAt(0)))
	return marks
}

/** Languages written in Latin letters whose stemmers change a word's start. */
const prefixStrippers = new Set(['ga', 'id'])

/** The languages a reader's words are stemmed in: the site's, and every published article's. */
export async function contentLanguages(storage: Storage): Promise<string[]> {
	const [settings, languages] = await Promise.all([
		getSiteSettings(storage),
		storage.articles.languages(),
	])
	return [...new Set([settings.language, ...languages].map((tag) => tag.toLowerCase()))]
}

export interface SearchStemsOutcome {
	claimed: number
	stored: number
	/** The step stopped short of its batch at its size limit: the rest are due at once. */
	more?: true
}

/**
 * Articles stemmed in one step. A 1,000-word article costs about 3 ms (its stems, then its index
 * row made again); SQLite's driver holds the event loop while the step's transaction writes, so
 * steps stay small.
 */
const stemsBatch = 8
/** Past this much text (characters), a step takes no more articles. */
const stepBytes = 256_000

/** How long a step holds the articles it took: far longer than a step takes. */
const stemsLeaseMs = 2 * 60_000
/** How often the articles stemmed in a language no longer the site's are looked for anyway. */
const relanguageCheckMs = 10 * 60_000

/**
 * One step of the search-stems worker (server/jobs/search-stems.ts): the stems of up to 8
 * articles whose stems are due, made and stored. Steps on several instances at once take
 * different articles (each holds its own for stemsLeaseMs), and stems are stored only for the
 * version they were made from.
 */
export function searchStemSteps(storage: Storage, logger?: Pick<Logger, 'warn'>) {
	let checkedLanguage: string | undefined
	let checkedAt = 0
	async function step(): Promise<SearchStemsOutcome> {
		const { language: siteLanguage } = await getSiteSettings(storage)
		// Articles naming no language are looked at again when the site's language changed, and
		// every few minutes: some may have been held by an instance that stopped mid-step.
		const relanguage =
			checkedLanguage !== siteLanguage || Date.now() - checkedAt > relanguageCheckMs
		// Held for this step: the other instances' steps take other articles meanwhile.
		const due = await storage.search.unstemmed(stemsBatch, relanguage ? siteLanguage : undefined, {
			now: new Date(),
			leaseMs: stemsLeaseMs,
		})
		const entries: ArticleStems[] = []
		let bytes = 0
		for (const article of due) {
			// Long texts make a short step: each article's index row is written while SQLite holds
			// the event loop. The rest are due still, and the next step comes at once.
			if (entries.length > 0 && bytes > stepBytes) break
			bytes += article.bodyMarkdown.length
			const language = article.language || siteLanguage
			try {
				// The title's apart: a stem found there ranks as the title does.
				const titleStems = await textStems([article.title], language)
				const stems = await textStems([article.summary, article.bodyMarkdown], language)
				entries.push({ id: article.id, version: article.version, titleStems, stems, language })
			} catch (error) {
				// Stored without stems (found by its words as written), not asked again at every
				// step ahead of the others.
				logger?.warn('search: could not make an article’s stems; it is found by its words', {
					id: article.id,
					language,
					error,
				})
				entries.push({
					id: article.id,
					version: article.version,
					titleStems: '',
					stems: '',
					language,
				})
			}
			// Requests go between two articles' stemming.
			await new Promise((resolve) => setImmediate(resolve))
		}
		// Every article due, in the site's language too, has been read: no need to look again.
		if (due.length < stemsBatch && entries.length === due.length) {
			checkedLanguage = siteLanguage
			checkedAt = Date.now()
		}
		const made = new Set(entries.map((entry) => entry.id))
		const leftOver = due.filter((article) => !made.has(article.id)).map((article) => article.id)
		const { stored, unindexed } = await storage.search.setStems(entries, leftOver)
		if (unindexed.length > 0)
			logger?.warn(
				'search: some articles’ stems could not be indexed; they are found by their words',
				{
					ids: unindexed,
				},
			)
		return leftOver.length > 0
			? { claimed: due.length, stored, more: true }
			: { claimed: due.length, stored }
	}
	return {
		step,
		nothing: (): SearchStemsOutcome => ({ claimed: 0, stored: 0 }),
		batchSize: stemsBatch,
	}
}
