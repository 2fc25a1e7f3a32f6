import { index, layout, prefix, type RouteConfig, route } from '@react-router/dev/routes'

export default [
	index('routes/home.tsx', { id: 'home-root' }),
	route('home', 'routes/home.tsx', { id: 'home' }),
	route('articles', 'routes/articles.tsx'),
	route('articles/:slug', 'routes/article.tsx'),
	route('contact', 'routes/contact.tsx'),
	...prefix('admin', [
		route('sign-in', 'routes/admin/sign-in.tsx'),
		route('sign-out', 'routes/admin/sign-out.ts'),
		route('setup', 'routes/admin/setup.tsx'),
		layout('routes/admin/layout.tsx', [
			index('routes/admin/index.tsx'),
			route('account', 'routes/admin/account.tsx'),
			route('*', 'routes/admin/not-found.tsx'),
		]),
	]),
	route('robots.txt', 'routes/robots.ts'),
	route('sitemap.xml', 'routes/sitemap.ts'),
	route('feed.xml', 'routes/feed-rss.ts'),
	route('atom.xml', 'routes/feed-atom.ts'),
	route('*', 'routes/catch-all.ts'),
] satisfies RouteConfig
