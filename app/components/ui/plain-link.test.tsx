import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { isCurrentPath, PlainLink } from './plain-link.tsx'

describe('a plain link', () => {
	it('is an anchor the document’s listeners follow, prefetching on intent when asked', () => {
		expect(renderToStaticMarkup(<PlainLink to="/tags/peat">Peat</PlainLink>)).toBe(
			'<a href="/tags/peat" data-discover="true" data-plain-link="">Peat</a>',
		)
		expect(
			renderToStaticMarkup(
				<PlainLink to="/articles/peat" prefetch="intent" className="x">
					Peat
				</PlainLink>,
			),
		).toBe(
			'<a class="x" href="/articles/peat" data-discover="true" data-plain-link="" data-prefetch="intent">Peat</a>',
		)
	})

	it('is left to the browser when the page must load whole, and marks the current page', () => {
		expect(
			renderToStaticMarkup(
				<PlainLink to="/articles/turba" reloadDocument prefetch="intent">
					Turba
				</PlainLink>,
			),
		).toBe('<a href="/articles/turba">Turba</a>')
		expect(
			renderToStaticMarkup(
				<PlainLink to="/articles" current>
					Articles
				</PlainLink>,
			),
		).toBe(
			'<a href="/articles" aria-current="page" data-discover="true" data-plain-link="">Articles</a>',
		)
	})
})

describe('the current page, as a <NavLink> decides it', () => {
	it.each([
		['/articles', '/articles', true],
		['/articles/peat', '/articles', true],
		['/Articles', '/articles', true],
		['/articles', '/articles?lang=all', true],
		['/tags/peat/', '/tags/peat/', true],
		['/', '/', true],
		// Not a page whose name merely begins the same, nor every page for the home.
		['/articles-old', '/articles', false],
		['/contact', '/articles', false],
		['/articles', '/', false],
		['/home', '/home/', false],
	])('on %s, a link to %s is current: %s', (pathname, to, current) => {
		expect(isCurrentPath(pathname, to)).toBe(current)
	})
})
