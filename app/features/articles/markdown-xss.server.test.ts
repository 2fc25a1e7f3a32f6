// @vitest-environment jsdom
// The sanitising pipeline against known script-smuggling payloads: what it gives the page holds
// nothing that could run. tests/e2e/xss.spec.ts opens the same payloads in a real browser.
import { describe, expect, it } from 'vitest'
import { dangerousMarkup, xssPayloads } from '#tests/fixtures/xss-payloads.ts'
import { renderMarkdown } from './markdown.server.ts'

describe('renderMarkdown against script-smuggling payloads', () => {
	it.each(xssPayloads)('renders "$name" inert', async ({ markdown }) => {
		const html = await renderMarkdown(markdown)
		const parsed = new DOMParser().parseFromString(html, 'text/html')
		expect(dangerousMarkup(parsed.body)).toEqual([])
		// Whatever is left of the payload is text: its tags come out escaped, never as markup.
		expect(html).not.toMatch(/<(script|iframe|svg|math|style|object|embed|form|img[^>]+on)/i)
	})

	it('finds what it looks for, so a pass above means something', () => {
		const parsed = new DOMParser().parseFromString(
			'<img src=x onerror="x()"><a href="jav&#x09;ascript:x()">a</a><iframe srcdoc="x"></iframe><a href="https://example.org">ok</a>',
			'text/html',
		)
		expect(dangerousMarkup(parsed.body)).toEqual([
			'<iframe>',
			'onerror on <img>',
			'href="jav\tascript:x()" on <a>',
			'srcdoc on <iframe>',
		])
	})
})
