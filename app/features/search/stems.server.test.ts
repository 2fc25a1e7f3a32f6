// Stems as the search index keeps them and a reader's words look for them: each language's
// Snowball rules, folded as the index folds words; phrases and exclusions left exact.
import { describe, expect, it } from 'vitest'
import { parseQuery } from './search-query.ts'
import { stemMatcher, stemmerFor, textStems, withStems } from './stems.server.ts'

const stems = async (text: string, language: string) =>
	(await textStems([text], language)).split(' ')

describe('search stems', () => {
	it('stems an article in its language, keeping only stems that differ from their word', async () => {
		expect(await stems('Forests and rivers; the forest', 'en')).toEqual(['forest', 'river'])
		expect(await stems('Los bosques húmedos', 'es')).toEqual(expect.arrayContaining(['bosqu']))
		// The accent matters to Spanish's rules: both the folded and the written word's stems.
		expect(await stems('restauración', 'es')).toEqual(['restaur'])
		expect(await stems('Леса и реки', 'ru')).toEqual(['лес', 'рек'])
		expect(await stems('الغابات', 'ar')).toEqual(['غاب'])
		// A regional tag uses its language's rules; a language with none gives no stems.
		expect(await stems('florestas', 'pt-BR')).toEqual(['florest'])
		expect(await textStems(['森林保护'], 'zh')).toBe('')
		expect(await stemmerFor('xx')).toBeUndefined()
		// Bulgarian's stemmer throws on ordinary words ("зелен"): left out, the words kept as written.
		expect(await stemmerFor('bg')).toBeUndefined()
		const green = parseQuery('зелен')
		if (!green) throw new Error('no query')
		expect(await withStems(green, 'зелен', ['bg'])).toBe(green)
	})

	it('adds stems to a reader’s single words in every language given, not to phrases or exclusions', async () => {
		const text = 'bosques "old forests" -rivers'
		const query = parseQuery(text)
		if (!query) throw new Error('no query')
		const stemmed = await withStems(query, text, ['en', 'es', 'zh'])
		expect(stemmed.all).toEqual([
			[{ words: ['bosques'], prefix: false, stems: ['bosqu'] }],
			[{ words: ['old', 'forests'], prefix: false }],
		])
		expect(stemmed.none).toEqual([{ words: ['rivers'], prefix: false }])
		// No language with a stemmer: the query as it was.
		expect(await withStems(query, text, ['zh'])).toBe(query)
	})

	it('looks for another language’s short stems of a reader’s word only in the site’s language', async () => {
		const words = async (text: string, languages: string[]) => {
			const query = parseQuery(text)
			if (!query) throw new Error('no query')
			return (await withStems(query, text, languages)).all.map((clause) => clause[0]?.stems)
		}
		// On an English site, Spanish's "for" for "fore" and French's "se" for "sea" would find
		// every English "for" and every Spanish "se"; English's own "sea" for "seas" counts.
		expect(await words('fore sea seas', ['en', 'es', 'fr'])).toEqual([
			undefined,
			undefined,
			['sea'],
		])
		// Longer stems count in every language: "bosques" is "bosqu" on an English site too.
		expect(await words('bosques', ['en', 'es'])).toEqual([['bosqu']])
		// On a French site, French's own "se" counts, and English's "sea" is too short to.
		expect(await words('seas', ['fr', 'en'])).toEqual([['se']])
		// The snippet marks no English "see" for "sea" either.
		const sea = parseQuery('sea')
		if (!sea) throw new Error('no query')
		const marks = await stemMatcher(await withStems(sea, 'sea', ['en', 'fr']), ['en', 'fr'])
		expect(['see', 'seas'].map((word) => marks?.(word))).toEqual([false, true])
	})

	it('marks the words a search found by their stems', async () => {
		const query = parseQuery('forest')
		if (!query) throw new Error('no query')
		const marks = await stemMatcher(await withStems(query, 'forest', ['en']), ['en'])
		expect(['forests', 'forested', 'foreign', 'river'].map((word) => marks?.(word))).toEqual([
			true,
			true,
			false,
			false,
		])
		expect(await stemMatcher(query, ['zh'])).toBeUndefined()
		// Which first letters a marked word can have: none told where a stemmer takes a word's
		// start (Irish: "bhean" is "bean").
		expect(marks?.firsts).toEqual(new Set(['f'.charCodeAt(0)]))
		expect((await stemMatcher(query, ['en', 'ga']))?.firsts).toBeUndefined()
	})
})
