// GET /manifest.webmanifest: the web app manifest, so a reader can add the site to a phone's home
// screen. On iOS that is also what lets a reader turn on notices: Safari offers Web Push only to a
// site added to the Home Screen as a standalone app. Named and iconed from the site settings.

import { getSiteSettings } from '#app/features/site/site-settings.server.ts'
import { siteLocales } from '#app/features/site/site-settings.ts'
import { taglineIn } from '#app/features/site/tagline.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { i18nFor } from '#app/lib/i18n.ts'
import type { Route } from './+types/manifest'

export async function loader({ context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const site = await getSiteSettings(storage)
	const manifest = {
		name: site.title,
		description: taglineIn(i18nFor(siteLocales(site).language), site),
		id: '/home',
		start_url: '/home',
		scope: '/',
		display: 'standalone',
		background_color: '#ffffff',
		theme_color: '#000000',
		icons: [
			{ src: '/apple-touch-icon.png', sizes: '180x180', type: 'image/png' },
			{ src: '/logo.svg', sizes: 'any', type: 'image/svg+xml' },
		],
	}
	return new Response(JSON.stringify(manifest), {
		headers: {
			'Content-Type': 'application/manifest+json; charset=utf-8',
			// A renamed site shows its new name within the hour.
			'Cache-Control': 'public, max-age=3600',
		},
	})
}
