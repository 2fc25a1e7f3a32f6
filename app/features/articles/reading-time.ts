// How long an article takes to read, in any script (decision 033). Rates are the means measured
// for reading aloud-free silent text in the IReST study (Trauzettel-Klosinski et al., "Standardized
// Assessment of Reading Performance", IOVS 2012), 17 languages: words per minute, and for Chinese
// and Japanese, which are not written in words, characters per minute.

const wordsPerMinute: Record<string, number> = {
	ar: 138,
	de: 179,
	en: 228,
	es: 218,
	fi: 161,
	fr: 195,
	he: 187,
	it: 188,
	nl: 202,
	pl: 166,
	pt: 181,
	ru: 184,
	sl: 180,
	sv: 199,
	tr: 166,
	zh: 158,
	ja: 193,
}
/** Any other language: near the study's mean over its languages. */
const defaultWordsPerMinute = 184

const charactersPerMinute: Record<string, number> = { zh: 255, ja: 357 }
const defaultCharactersPerMinute = 255

// Scripts written without spaces between words: each character is counted instead.
const unspaced =
	/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu
const word = /[\p{L}\p{N}]/u

/** Minutes to read a text in a language (a BCP 47 tag; "" or unknown: a mean rate), at least 1. */
export function readingMinutes(text: string, language = ''): number {
	const primary = language.toLowerCase().split('-')[0] ?? ''
	const characters = text.match(unspaced)?.length ?? 0
	const words = text
		.replace(unspaced, ' ')
		.split(/\s+/)
		.filter((token) => word.test(token)).length
	const minutes =
		words / (wordsPerMinute[primary] ?? defaultWordsPerMinute) +
		characters / (charactersPerMinute[primary] ?? defaultCharactersPerMinute)
	return Math.max(1, Math.round(minutes))
}
