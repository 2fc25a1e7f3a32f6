// The public pages every benchmark looks at. The article is one of the six seeded ones, so a
// fresh data directory always has it.
export const articlePath = '/articles/the-living-ground'

export const publicPages = [
	{ name: '/home', path: '/home' },
	{ name: '/articles', path: '/articles' },
	{ name: 'article', path: articlePath },
	{ name: '/contact', path: '/contact' },
] as const
