import { describe, expect, it } from 'vitest'
import { MarkdownRefused, renderMarkdown, tooSlowMessage } from './markdown.server.ts'

describe('renderMarkdown', () => {
	it('renders Markdown and GitHub extensions', async () => {
		const html = await renderMarkdown(
			'## Soil\n\nIt is **alive**.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done',
		)
		expect(html).toContain('<h2>Soil</h2>')
		expect(html).toContain('<strong>alive</strong>')
		expect(html).toContain('<table>')
		expect(html).toContain('type="checkbox"')
	})

	it('drops raw HTML, scripts and event handlers written into the Markdown', async () => {
		const html = await renderMarkdown(
			'Hello <script>alert(1)</script> <img src=x onerror="alert(2)"> <iframe src="https://evil.example"></iframe>\n\n<div onclick="x()">block</div>',
		)
		expect(html).not.toMatch(/<script|onerror|<iframe|onclick|<div/i)
		expect(html).toContain('Hello')
	})

	it('neutralises javascript: links and keeps safe ones', async () => {
		const html = await renderMarkdown(
			'[bad](javascript:alert(1)) [good](https://www.ipcc.ch/report/ar6/syr/)',
		)
		expect(html).not.toContain('javascript:')
		expect(html).toContain('href="https://www.ipcc.ch/report/ar6/syr/"')
	})

	it('prefixes heading ids so article text cannot clobber the page’s own ids', async () => {
		const html = await renderMarkdown('[jump](#main)\n\n[^1]\n\n[^1]: A note.')
		expect(html).not.toMatch(/id="main"/)
		expect(html).toContain('user-content-')
	})
})

describe('renderMarkdown’s limits', () => {
	it.each([
		['90,000 nested quotes', `${'> '.repeat(90_000)}x`, /more than 20 levels deep/],
		['5,000 nested quotes', `${'> '.repeat(5_000)}x`, /more than 20 levels deep/],
		['150,000 unclosed brackets', '['.repeat(150_000), /more than 200 square brackets/],
		['25,000 emphasis runs', '*a **a '.repeat(25_000), /more than 2,000 emphasis marks/],
	])('refuses %s at once, with a message naming the limit', async (_name, markdown, message) => {
		const refusal = renderMarkdown(markdown)
		await expect(refusal).rejects.toBeInstanceOf(MarkdownRefused)
		await expect(refusal).rejects.toThrow(message)
	})

	it('stops a render that runs past its time limit, then renders the next text', async () => {
		await expect(renderMarkdown('A long text. '.repeat(15_000), 1)).rejects.toThrow(tooSlowMessage)
		expect(await renderMarkdown('Back to *normal*.')).toBe('<p>Back to <em>normal</em>.</p>')
	})
})
