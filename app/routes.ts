// Pages, the admin area and resource routes. The server answers a few URLs itself before these
// (health, sign-in, screen views, push, configuration, the live stream): server/routes.ts.
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
			route('pages', 'routes/admin/articles.tsx', { id: 'admin-pages' }),
			route('pages/new', 'routes/admin/article-new.tsx', { id: 'admin-page-new' }),
			route('uploads', 'routes/admin/uploads.ts'),
			route('media', 'routes/admin/media.tsx'),
			route('messages', 'routes/admin/messages.tsx'),
			route('messages/:id', 'routes/admin/message.tsx'),
			route('analytics', 'routes/admin/analytics.tsx'),
			route('analytics/export', 'routes/admin/analytics-export.ts'),
			route('analytics/now', 'routes/admin/analytics-now.ts'),
			// Admins only: the site, the team, the API's keys and the live configuration.
			layout('routes/admin/admin-only.tsx', [
				route('settings', 'routes/admin/settings.tsx'),
				route('team', 'routes/admin/team.tsx'),
				route('api-keys', 'routes/admin/api-keys.tsx'),
				route('redirects', 'routes/admin/redirects.tsx'),
				route('config', 'routes/admin/config.tsx'),
				route('config/versions', 'routes/admin/config-versions.tsx'),
				route('config/:key', 'routes/admin/config-parameter.tsx'),
			]),
			route('*', 'routes/admin/not-found.tsx'),
		]),
	]),
	route('api/contact', 'routes/api/contact.ts'),
	...prefix('api/admin', [
		route('articles', 'routes/api/admin-articles.ts'),
		route('articles/:id', 'routes/api/admin-article.ts'),
		route('articles/:id/publish', 'routes/api/admin-article-state.ts', { id: 'api-publish' }),
		route('articles/:id/unpublish', 'routes/api/admin-article-state.ts', { id: 'api-unpublish' }),
		route('uploads', 'routes/api/admin-uploads.ts'),
		route('*', 'routes/api/admin-not-found.ts'),
	]),
	route('robots.txt', 'routes/robots.ts'),
	route('manifest.webmanifest', 'routes/manifest.ts'),
	route('sitemap.xml', 'routes/sitemap.ts'),
	route('feed.xml', 'routes/feed-rss.ts'),
	route('atom.xml', 'routes/feed-atom.ts'),
	// A page (About, Donate) at its own address; any other single segment, as every unknown
	// address, goes home.
	route(':slug', 'routes/page.tsx'),
	route('*', 'routes/catch-all.ts'),
] satisfies RouteConfig
