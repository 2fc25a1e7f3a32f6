import { index, layout, prefix, type RouteConfig, route } from '@react-router/dev/routes'

export default [
	index('routes/home.tsx', { id: 'home-root' }),
	route('home', 'routes/home.tsx', { id: 'home' }),
	route('articles', 'routes/articles.tsx'),
	route('articles/:slug', 'routes/article.tsx'),
	route('contact', 'routes/contact.tsx'),
	route('media/:file', 'routes/media.ts'),
	...prefix('admin', [
		route('sign-in', 'routes/admin/sign-in.tsx'),
		route('sign-out', 'routes/admin/sign-out.ts'),
		route('setup', 'routes/admin/setup.tsx'),
		route('forgot-password', 'routes/admin/forgot-password.tsx'),
		route('reset-password', 'routes/admin/reset-password.tsx'),
		route('invite', 'routes/admin/invite.tsx'),
		layout('routes/admin/layout.tsx', [
			index('routes/admin/index.tsx'),
			route('account', 'routes/admin/account.tsx'),
			route('articles', 'routes/admin/articles.tsx'),
			route('articles/new', 'routes/admin/article-new.tsx'),
			route('articles/:id', 'routes/admin/article-edit.tsx'),
			route('articles/preview', 'routes/admin/article-preview.ts'),
			route('articles/slug-check', 'routes/admin/slug-check.ts'),
			route('uploads', 'routes/admin/uploads.ts'),
			// Admins only: the site, the team and the API's keys.
			layout('routes/admin/admin-only.tsx', [
				route('settings', 'routes/admin/settings.tsx'),
				route('team', 'routes/admin/team.tsx'),
				route('api-keys', 'routes/admin/api-keys.tsx'),
			]),
			route('*', 'routes/admin/not-found.tsx'),
		]),
	]),
	...prefix('api/admin', [
		route('articles', 'routes/api/admin-articles.ts'),
		route('articles/:id', 'routes/api/admin-article.ts'),
		route('articles/:id/publish', 'routes/api/admin-article-publish.ts'),
		route('articles/:id/unpublish', 'routes/api/admin-article-unpublish.ts'),
		route('uploads', 'routes/api/admin-uploads.ts'),
		route('*', 'routes/api/admin-not-found.ts'),
	]),
	route('robots.txt', 'routes/robots.ts'),
	route('sitemap.xml', 'routes/sitemap.ts'),
	route('feed.xml', 'routes/feed-rss.ts'),
	route('atom.xml', 'routes/feed-atom.ts'),
	route('*', 'routes/catch-all.ts'),
] satisfies RouteConfig
