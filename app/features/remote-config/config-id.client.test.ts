// @vitest-environment jsdom
// The visitor's config id: made once, kept in a first-party cookie with the attributes decision
// 013 gives, and the same id on every later call.
import { afterEach, describe, expect, it } from 'vitest'
import { configIdCookie, ensureConfigId } from './config-id.client.ts'

const cookieValue = () =>
	document.cookie
		.split('; ')
		.find((part) => part.startsWith(`${configIdCookie}=`))
		?.slice(configIdCookie.length + 1)

/** A document that records what is written to document.cookie, attributes included. */
function recordingDocument(protocol: string, cookie = '') {
	const written: string[] = []
	const doc = {
		location: { protocol },
		get cookie() {
			return cookie
		},
		set cookie(value: string) {
			written.push(value)
		},
	}
	return { doc: doc as unknown as Document, written }
}

afterEach(() => {
	// biome-ignore lint/suspicious/noDocumentCookie: the cookie ensureConfigId writes, cleared
	document.cookie = `${configIdCookie}=; Path=/; Max-Age=0`
})

describe('ensureConfigId', () => {
	it('makes 16 random bytes in URL-safe base64 and keeps them in the cookie', () => {
		expect(cookieValue()).toBeUndefined()
		const id = ensureConfigId()
		expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/)
		expect(cookieValue()).toBe(id)
	})

	it('returns the same id on later calls, and another browser gets another id', () => {
		const id = ensureConfigId()
		expect(ensureConfigId()).toBe(id)
		const { doc } = recordingDocument('http:')
		expect(ensureConfigId(doc)).not.toBe(id)
	})

	it('replaces an id the server could not read', () => {
		// biome-ignore lint/suspicious/noDocumentCookie: the state under test
		document.cookie = `${configIdCookie}=short; Path=/`
		const id = ensureConfigId()
		expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/)
		expect(cookieValue()).toBe(id)
	})

	it('sets Path, Max-Age and SameSite, and Secure only on https', () => {
		const plain = recordingDocument('http:')
		const id = ensureConfigId(plain.doc)
		expect(plain.written).toEqual([
			`${configIdCookie}=${id}; Path=/; Max-Age=34560000; SameSite=Lax`,
		])
		const secure = recordingDocument('https:')
		const secureId = ensureConfigId(secure.doc)
		expect(secure.written).toEqual([
			`${configIdCookie}=${secureId}; Path=/; Max-Age=34560000; SameSite=Lax; Secure`,
		])
	})

	it('writes nothing when the cookie is there already', () => {
		const existing = 'AAAAAAAAAAAAAAAAAAAAAA'
		const { doc, written } = recordingDocument('https:', `other=1; ${configIdCookie}=${existing}`)
		expect(ensureConfigId(doc)).toBe(existing)
		expect(written).toEqual([])
	})
})
