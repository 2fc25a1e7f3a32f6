import { describe, expect, it } from 'vitest'
import { FrontMatterError, parseArticleFile } from './front-matter.server.ts'

describe('parseArticleFile', () => {
	it('reads front matter and body', () => {
		const parsed = parseArticleFile('---\ntitle: "Soil"\ntags: [a, b]\n---\n\nBody **text**.\n')
		expect(parsed).toEqual({ title: 'Soil', tags: ['a', 'b'], body: 'Body **text**.' })
	})

	it.each([
		['no front matter', 'Just text'],
		['broken YAML', '---\ntitle: [unclosed\n---\nBody'],
		['a list instead of keys', '---\n- a\n- b\n---\nBody'],
	])('explains %s', (_, text) => {
		expect(() => parseArticleFile(text)).toThrow(FrontMatterError)
	})
})
