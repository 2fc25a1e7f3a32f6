import { describe, expect, it } from 'vitest'
import { checkLink, confirmLink, signLink, subscriberLinks } from './newsletter-links.server.ts'

const secret = 'a'.repeat(43)
const now = new Date('2026-11-26T12:00:00Z')

describe('newsletter links', () => {
	it('opens only for its purpose and its subscriber, and a confirmation only for its week', () => {
		const manage = signLink(secret, 'manage', 42)
		expect(checkLink(secret, manage, 'manage', now)).toEqual({ ok: true, subscriberId: 42 })
		expect(checkLink(secret, manage, 'confirm', now)).toEqual({ ok: false, reason: 'invalid' })
		expect(checkLink(secret, manage.replace('.42.', '.43.'), 'manage', now)).toMatchObject({
			ok: false,
		})
		expect(checkLink('b'.repeat(43), manage, 'manage', now)).toMatchObject({ ok: false })
		const confirm = new URL(confirmLink(secret, 'https://example.org', 7, now)).searchParams.get(
			'token',
		)
		expect(checkLink(secret, confirm, 'confirm', now)).toEqual({ ok: true, subscriberId: 7 })
		const later = new Date(now.getTime() + 8 * 24 * 60 * 60 * 1000)
		expect(checkLink(secret, confirm, 'confirm', later)).toEqual({ ok: false, reason: 'expired' })
		for (const junk of [undefined, '', 'manage.1.0', `${manage}x`, 42])
			expect(checkLink(secret, junk, 'manage', now)).toMatchObject({ ok: false, reason: 'invalid' })
	})

	it('gives every mail its unsubscribe and preferences addresses on the site', () => {
		const links = subscriberLinks(secret, 'https://example.org', 5)
		expect(links.unsubscribe).toMatch(
			/^https:\/\/example\.org\/newsletter\/unsubscribe\?token=manage\.5\.0\./,
		)
		const token = new URL(links.preferences).searchParams.get('token')
		expect(checkLink(secret, token, 'manage', now)).toEqual({ ok: true, subscriberId: 5 })
	})
})
