import { describe, expect, it } from 'vitest'
import { parseQuery, queryWords } from './search-query.ts'
import { snippet } from './snippet.ts'

describe('parseQuery', () => {
	it('reads words, the last also as a prefix, folded', () => {
		expect(parseQuery('Peat Bogs')).toEqual({
			all: [[{ words: ['peat'], prefix: false }], [{ words: ['bogs'], prefix: true }]],
			none: [],
		})
		expect(parseQuery('Rhône')?.all).toEqual([[{ words: ['rhone'], prefix: true }]])
	})

	it('reads phrases, exclusions and OR', () => {
		expect(parseQuery('"river clean" -nine dunes OR marsh')).toEqual({
			all: [
				[{ words: ['river', 'clean'], prefix: false }],
				[
					{ words: ['dunes'], prefix: false },
					{ words: ['marsh'], prefix: true },
				],
			],
			none: [{ words: ['nine'], prefix: false }],
		})
		// Words joined by signs are a phrase, as the index splits them.
		expect(parseQuery('clean-up')?.all).toEqual([[{ words: ['clean', 'up'], prefix: false }]])
	})

	it('turns any syntax into plain words, and finds nothing to look for in signs alone', () => {
		for (const text of ['', '   ', '!!! ??? ***', '-peat', '"', 'OR', '— – …', '👍🏽🌿'])
			expect(parseQuery(text), text).toBeNull()
		expect(
			parseQuery("'; DROP TABLE articles; --")
				?.all.flat()
				.flatMap((p) => p.words),
		).toEqual(['drop', 'table', 'articles'])
		expect(
			parseQuery('NEAR(peat bog) AND body:"x" ^title*')
				?.all.flat()
				.flatMap((p) => p.words),
		).toEqual(['near', 'peat', 'bog', 'and', 'body', 'x', 'title'])
		expect(
			parseQuery('مياه نظيفة')
				?.all.flat()
				.flatMap((p) => p.words),
		).toEqual(['مياه', 'نظيفة'])
		// At most eight clauses.
		expect(parseQuery('a b c d e f g h i j k')?.all).toHaveLength(8)
	})
})

describe('snippet', () => {
	/** The snippet of `markdown` for a reader's `query`, its parts marked or not. */
	const snippetFor = (markdown: string, query: string) =>
		snippet(markdown, queryWords(parseQuery(query) ?? { all: [], none: [] }), '')
	/** The same, as the text a reader sees. */
	const snippetText = (markdown: string, query: string) =>
		snippetFor(markdown, query)
			.map((part) => part.text)
			.join('')

	it('marks the words searched for where they are thickest, whatever their accents', () => {
		const parts = snippetFor(
			`${'Filler words here. '.repeat(20)}The **Rhône** reaches its [delta](https://example.org) at last.`,
			'rhone delta',
		)
		expect(parts.filter((part) => part.mark).map((part) => part.text)).toEqual(['Rhône', 'delta'])
		expect(parts[0]?.text).toBe('… ')
		expect(parts.map((part) => part.text).join('')).not.toContain('example.org')
	})

	it('marks a single letter or digit only beside another match', () => {
		const marked = snippetFor(
			'Plan C is 1 step. Warming past 1.5°C costs more; 2 of 5 reefs bleach.',
			'1.5°C',
		)
			.filter((part) => part.mark)
			.map((part) => part.text)
		expect(marked).toEqual(['1', '5', 'C'])
	})

	it('shows a table as its words, each cell and row set off, without its rule', () => {
		expect(
			snippetText(
				'| Warming | Heat extremes |\n| --- | :---: |\n| 2°C | 5.6 times |\n\n***\n\nAfter.',
				'heat',
			),
		).toBe('Warming · Heat extremes · 2°C · 5.6 times · After.')
	})

	it('keeps punctuation against the words emphasis or a tag closes', () => {
		expect(
			snippetText('Changes in **sea use**, such as _clearing_. <b>Forests</b>, too.', 'sea'),
		).toBe('Changes in sea use, such as clearing. Forests, too.')
	})

	it('sets a heading or a list item off from the next words, where it does not end a sentence', () => {
		expect(
			snippetText(
				'## Why peat matters\n\nPeat stores carbon.\nIt grows slowly.\n\n- Water\n- Moss\n1. Wait\n\nDone? Yes',
				'peat',
			),
		).toBe(
			'Why peat matters · Peat stores carbon. It grows slowly. Water · Moss · Wait · Done? Yes',
		)
	})

	it('starts a few words before the match, not with the words before them', () => {
		const text = snippetText(`${'Filler words here. '.repeat(20)}We found peat at last.`, 'peat')
		expect(text).toBe('… words here. We found peat at last.')
	})

	it('finds the words in a long text where they are thickest, whichever block holds them', () => {
		const filler = (n: number) => `Paragraph ${n} says nothing much about anything at all.`
		const blocks = Array.from({ length: 12 }, (_, n) => filler(n))
		blocks[3] = 'One heron here.'
		blocks[8] = 'A heron, a second heron and a third heron by the water.'
		const parts = snippetFor(blocks.join('\n\n'), 'heron')
		expect(parts.filter((part) => part.mark)).toHaveLength(3)
		expect(parts[0]?.text).toBe('… ')
		expect(parts.at(-1)?.text).toBe(' …')
		// Words inside others ("herons" for an exact word) are not matches: the block after is read.
		const inside = Array.from({ length: 12 }, (_, n) => `Herons and heronries ${n}.`)
		inside[10] = 'At dusk, the "heron" came.'
		expect(
			snippet(inside.join('\n\n'), [{ word: 'heron', prefix: false }], '')
				.filter((part) => part.mark)
				.map((part) => part.text),
		).toEqual(['heron'])
	})

	it('marks a word whose stem it does not hold, in a long text as in a short one', () => {
		const cities = Object.assign((word: string) => word === 'city' || word === 'cities', {
			stems: ['citi'],
		})
		const blocks = Array.from({ length: 8 }, (_, n) => `Fields and farms, paragraph ${n}.`)
		blocks[5] = 'The city grew.'
		expect(
			snippet(blocks.join('\n\n'), [{ word: 'citi', prefix: false }], '', cities)
				.filter((part) => part.mark)
				.map((part) => part.text),
		).toEqual(['city'])
	})

	it('gives the summary when the words are only in the title or tags', () => {
		expect(snippet('Nothing here.', [{ word: 'heron', prefix: false }], 'About herons.')).toEqual([
			{ text: 'About herons.', mark: false },
		])
	})
})
