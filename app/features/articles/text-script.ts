// Which writing system a text is mostly in, and whether a language is written in it: the editor
// says so when an article's text is in one script and its language (or the site's) in another,
// a Russian article left as "English", say, which browsers, screen readers and search would
// then read as English (docs/decisions/033-languages.md).

/** ISO 15924 codes, as Intl.Locale#maximize() gives them, for the scripts worth telling apart. */
const scripts: [code: string, letters: RegExp][] = [
	['Latn', /\p{Script=Latin}/u],
	['Cyrl', /\p{Script=Cyrillic}/u],
	['Grek', /\p{Script=Greek}/u],
	['Arab', /\p{Script=Arabic}/u],
	['Hebr', /\p{Script=Hebrew}/u],
	['Deva', /\p{Script=Devanagari}/u],
	['Beng', /\p{Script=Bengali}/u],
	['Thai', /\p{Script=Thai}/u],
	['Armn', /\p{Script=Armenian}/u],
	['Geor', /\p{Script=Georgian}/u],
	['Hang', /\p{Script=Hangul}/u],
	['Kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
	['Hani', /\p{Script=Han}/u],
]

/** Letters looked at: enough to tell, and a long text costs no more than its start. */
const sample = 4_000

/**
 * The script most of a text's letters are in, when at least 60 % of 20 or more are; undefined
 * for a short or mixed text. Links and image addresses are left out (their letters are Latin
 * whatever the text's language).
 */
export function dominantScript(text: string): string | undefined {
	const words = text
		.replace(/\]\([^)]*\)/g, ']')
		.replace(/https?:\/\/\S+/g, ' ')
		.slice(0, sample * 2)
	const counts = new Map<string, number>()
	let letters = 0
	for (const character of words) {
		if (!/\p{L}/u.test(character)) continue
		letters++
		const found = scripts.find(([, pattern]) => pattern.test(character))
		if (found) counts.set(found[0], (counts.get(found[0]) ?? 0) + 1)
		if (letters >= sample) break
	}
	if (letters < 20) return undefined
	const [code, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? []
	return code && count !== undefined && count / letters >= 0.6 ? code : undefined
}

/** Whether a language (a BCP 47 tag) is written in a script; true when it cannot be told. */
export function writtenIn(language: string, script: string): boolean {
	let expected: string | undefined
	try {
		expected = new Intl.Locale(language).maximize().script
	} catch {
		return true
	}
	if (!expected) return true
	// Japanese mixes kana and kanji; Chinese and Japanese share Han; Korean may use Han too.
	const family: Record<string, string[]> = {
		Jpan: ['Kana', 'Hani'],
		Hans: ['Hani'],
		Hant: ['Hani'],
		Kore: ['Hang', 'Hani'],
	}
	return (family[expected] ?? [expected]).includes(script)
}

/** The script's name in the interface's language ("Cyrillic", "cyrillique"). */
export function scriptName(script: string, inLocale: string): string {
	try {
		return new Intl.DisplayNames([inLocale], { type: 'script' }).of(script) ?? script
	} catch {
		return script
	}
}
