// The language switcher (root.tsx): a reader's choice of interface language, kept a year in a
// cookie that is not an account cookie (the page cache keys on it, server/page-cache.ts), then
// back to the page they were on. A plain form post: works without JavaScript.
import { data, redirect } from 'react-router'
import { locationOf } from '#app/features/redirects/addresses.ts'
import { readForm } from '#app/lib/form.server.ts'
import { isInterfaceLocale, languageCookie } from '#app/lib/i18n.ts'
import type { Route } from './+types/language'

const oneYear = 365 * 24 * 60 * 60

export async function action({ request }: Route.ActionArgs) {
	if (request.method !== 'POST') throw data(null, { status: 405, headers: { Allow: 'POST' } })
	const form = await readForm(request)
	const language = form.get('language')
	const back = form.get('back')
	// Only a path on this site: never an address elsewhere (//evil.example, /\evil.example).
	const to = typeof back === 'string' && /^\/(?![/\\])/.test(back) ? back : '/home'
	if (!isInterfaceLocale(language)) return redirect(locationOf(to), 303)
	const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : ''
	return redirect(locationOf(to), {
		status: 303,
		headers: {
			'Set-Cookie': `${languageCookie}=${language}; Path=/; Max-Age=${oneYear}; SameSite=Lax${secure}`,
		},
	})
}

export function loader() {
	return redirect('/home')
}
