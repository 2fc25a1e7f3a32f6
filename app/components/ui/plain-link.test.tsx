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
	it('is the link’s page and the pages in its section', () => {
		expect(isCurrentPath('/articles', '/articles')).toBe(true)
		expect(isCurrentPath('/articles/peat', '/articles')).toBe(true)
		expect(isCurrentPath('/Articles', '/articles')).toBe(true)
		expect(isCurrentPath('/articles', '/articles?lang=all')).toBe(true)
		expect(isCurrentPath('/tags/peat/', '/tags/peat/')).toBe(true)
	})

	it('is not a page whose name merely begins the same, nor every page for the home', () => {
		expect(isCurrentPath('/articles-old', '/articles')).toBe(false)
		expect(isCurrentPath('/contact', '/articles')).toBe(false)
		expect(isCurrentPath('/articles', '/')).toBe(false)
		expect(isCurrentPath('/', '/')).toBe(true)
		expect(isCurrentPath('/home', '/home/')).toBe(false)
	})
})
