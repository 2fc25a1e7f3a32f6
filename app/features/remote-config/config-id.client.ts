// The visitor's config id (docs/decisions/013-remote-config.md): made by the browser, kept in a
// first-party cookie so server rendering can place the visitor in percentage rollouts. It is for
// that only: nothing here hands it to analytics or anything else.
export const configIdCookie = 'canopy_config_id'

/** 400 days, the longest a browser keeps a cookie. */
const maxAgeSeconds = 34_560_000
/** 16 bytes in URL-safe base64, without padding. */
const wellFormed = /^[A-Za-z0-9_-]{22}$/

function readCookie(cookies: string, name: string): string | undefined {
	for (const part of cookies.split(';')) {
		const [key, ...value] = part.trim().split('=')
		if (key === name) return value.join('=')
	}
	return undefined
}

/** The visitor's config id, made and stored in the cookie first if there is none yet. */
export function ensureConfigId(doc: Document = document): string {
	const existing = readCookie(doc.cookie, configIdCookie)
	// One the server could not read (cut short, edited by hand) is replaced like a missing one.
	if (existing && wellFormed.test(existing)) return existing
	const bytes = crypto.getRandomValues(new Uint8Array(16))
	const id = btoa(String.fromCharCode(...bytes))
		.replace(/\+/g, '-')
		.replace(/\//g, '_')
		.replace(/=+$/, '')
	const secure = doc.location?.protocol === 'https:' ? '; Secure' : ''
	doc.cookie = `${configIdCookie}=${id}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax${secure}`
	return id
}
