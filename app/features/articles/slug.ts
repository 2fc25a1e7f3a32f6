// An article's, a page's, a tag's or an author's address (decision 033): ASCII where a title's
// script reads well in Latin letters, the title's own letters where it does not.
import transliterate from '@sindresorhus/transliterate'
import { keptLetter, slugPattern } from './slug-pattern.ts'

/** In characters: a Chinese slug of 80 is 720 bytes once percent-encoded, still a fine URL. */
const maxLength = 80

// Scripts spelled in Latin letters by a rule readers of the language recognise (ГОСТ-style
// Cyrillic, ELOT Greek): "Леса и реки" → "lesa-i-reki". Others (Han, Arabic, Devanagari, Hebrew,
// Thai, Hangul…) keep their own letters: a transliteration would be unreadable to their readers
// and ambiguous ("حماية الغابات" → "hmayt-alghabat" drops the vowels).
const spelledInLatin =
	/[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Georgian}]+/gu

const notKept = new RegExp(`[^a-z0-9${keptLetter}]+`, 'gu')

/**
 * "Soil: the Living Ground!" → "soil-the-living-ground"; "Леса и реки" → "lesa-i-reki";
 * "森林保护" → "森林保护" (a browser shows it as is and sends it percent-encoded). Empty for a
 * title with nothing to spell (only emoji or signs): the caller makes one.
 */
export function slugify(title: string): string {
	const spelled = title
		.normalize('NFC')
		.replace(/&/g, ' and ')
		.replace(spelledInLatin, (run) => transliterate(run))
		.toLowerCase()
		.replace(notKept, '-')
		.replace(/^-+|-+$/g, '')
	return Array.from(spelled).slice(0, maxLength).join('').replace(/-+$/g, '')
}

export { slugPattern }

/** An address for a title slugify leaves nothing of: made from the title, the same every time. */
export function fallbackSlug(kind: string, title: string): string {
	// FNV-1a over the title's UTF-16 units: short, stable, and different for different titles.
	let hash = 0x811c9dc5
	for (const unit of title.trim().normalize('NFC').toLowerCase())
		for (let i = 0; i < unit.length; i++)
			hash = Math.imul(hash ^ unit.charCodeAt(i), 0x01000193) >>> 0
	return `${kind}-${hash.toString(16).padStart(8, '0')}`
}

/** A title's address: slugify's, or fallbackSlug's where that leaves nothing. */
export function slugFor(kind: 'article' | 'page' | 'tag' | 'author', title: string): string {
	return slugify(title) || fallbackSlug(kind, title)
}

/** A tag's or an author's address: slugify's, or one made from the name itself. */
export function termSlug(kind: 'tag' | 'author', name: string): string {
	return slugFor(kind, name)
}
