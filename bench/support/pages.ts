// The public pages every benchmark looks at. The article is one of the six seeded ones, so a
// fresh data directory always has it.
export const articlePath = '/articles/the-living-ground'

export const publicPages = [
	{ name: '/home', path: '/home' },
	{ name: '/articles', path: '/articles' },
	{ name: 'article', path: articlePath },
	{ name: '/contact', path: '/contact' },
] as const

/**
 * A session cookie of Canopy's (not a valid session): the page cache lets such a request through
 * (a signed-in person's answer is never cached), so each one renders. Any other cookie is served
 * from the cache like no cookie (decision 004).
 */
export const renderEveryTime = { cookie: 'canopy.session_token=bench' }
