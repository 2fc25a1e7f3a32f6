import { describe, expect, it } from 'vitest'
import { withWholeAddresses } from './feeds.server.ts'

describe('withWholeAddresses: a feed entry’s HTML, read away from the site', () => {
	const site = 'https://planet.example.org/'

	it('makes the site’s own paths whole, in src, href and each srcset candidate', () => {
		const html =
			'<p><a href="/articles/herons">Herons</a></p><picture><source type="image/webp" srcset="/media/a-480.webp 480w, /media/a-960.webp 960w"><img src="/media/a.jpg" alt="A heron" width="960" height="640"></picture>'
		expect(withWholeAddresses(html, site)).toBe(
			'<p><a href="https://planet.example.org/articles/herons">Herons</a></p><picture><source type="image/webp" srcset="https://planet.example.org/media/a-480.webp 480w, https://planet.example.org/media/a-960.webp 960w"><img src="https://planet.example.org/media/a.jpg" alt="A heron" width="960" height="640"></picture>',
		)
	})

	it('leaves addresses elsewhere, in-page anchors and protocol-relative ones as they are', () => {
		const html =
			'<a href="https://ipcc.ch/report">IPCC</a> <a href="#fn-1">1</a> <img src="//cdn.example.net/x.png" alt=""> <a href="mailto:hello@example.org">mail</a>'
		expect(withWholeAddresses(html, site)).toBe(html)
	})
})
