import { describe, expect, it } from 'vitest'
import { htmlToMarkdown, placeImages, TooComplex } from './html-to-markdown.server.ts'

describe('an export’s HTML as Markdown', () => {
	it('keeps text that shows a tag as text', () => {
		expect(htmlToMarkdown('<p>Use &lt;div&gt; wrappers</p>', 'ghost').markdown).toBe(
			'Use \\<div> wrappers',
		)
	})

	it('makes WordPress classic-editor paragraphs, leaving a code block’s blank lines alone', () => {
		const { markdown } = htmlToMarkdown(
			'<p>Para one</p>\nPara two\nline b\n\nPara three\n\n<pre>let a = 1\n\nlet b = 2</pre>',
			'wordpress',
		)
		expect(markdown).toBe(
			'Para one\n\nPara two  \nline b\n\nPara three\n\n```\nlet a = 1\n\nlet b = 2\n```',
		)
	})

	it('keeps emphasis inside a word', () => {
		expect(htmlToMarkdown('<p>un<em>believ</em>able</p>', 'ghost').markdown).toBe('un*believ*able')
	})

	it('drops an image that could not come across, whatever its description holds', () => {
		const { markdown } = htmlToMarkdown(
			'<p><img src="/a.jpg" alt="Map [2019]"> <img src="/b.jpg" alt="B"></p>',
			'ghost',
		)
		expect(placeImages(markdown, [null, '/media/b.jpg']).trim()).toBe('![B](/media/b.jpg)')
	})

	it('refuses tables too large to convert in reasonable time', () => {
		const rows = '<tr><td>1</td></tr>'.repeat(1_001)
		expect(() => htmlToMarkdown(`<table>${rows}</table>`, 'ghost')).toThrow(TooComplex)
	})
})
