import { describe, expect, it } from 'vitest'
import { checkFormToken, defaultMinimumFillMs, signFormToken } from './form-token.server.ts'

const secret = 'a-secret-only-the-server-knows'
const key = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'
const renderedAt = Date.UTC(2026, 4, 1, 12, 0, 0)

describe('the form token', () => {
	const token = signFormToken(secret, renderedAt, key)

	it('is valid once the minimum time has passed, and too fast before', () => {
		const minimum = defaultMinimumFillMs
		expect(checkFormToken(secret, token, key, renderedAt + minimum)).toBe('valid')
		expect(checkFormToken(secret, token, key, renderedAt + 60 * 60 * 1000)).toBe('valid')
		expect(checkFormToken(secret, token, key, renderedAt + minimum - 1)).toBe('too-fast')
		expect(checkFormToken(secret, token, key, renderedAt)).toBe('too-fast')
		expect(minimum).toBe(3_000)
	})

	it('takes the site’s own minimum (CONTACT_FORM_MIN_SECONDS), 0 for none', () => {
		expect(checkFormToken(secret, token, key, renderedAt + 999, 1_000)).toBe('too-fast')
		expect(checkFormToken(secret, token, key, renderedAt + 1_000, 1_000)).toBe('valid')
		expect(checkFormToken(secret, token, key, renderedAt, 0)).toBe('valid')
		expect(checkFormToken(secret, token, key, renderedAt + 9_999, 10_000)).toBe('too-fast')
	})

	it('is invalid when its time is moved back to look older', () => {
		const [, signature] = token.split('.')
		const older = `${renderedAt - 60_000}.${signature}`
		expect(checkFormToken(secret, older, key, renderedAt + 1_000)).toBe('invalid')
	})

	it('is invalid with another key, another secret, a changed signature, or none at all', () => {
		const now = renderedAt + 10_000
		expect(checkFormToken(secret, token, `${key.slice(0, -1)}e`, now)).toBe('invalid')
		expect(checkFormToken('another secret', token, key, now)).toBe('invalid')
		const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A')
		expect(checkFormToken(secret, flipped, key, now)).toBe('invalid')
		for (const broken of [undefined, '', 42, `${renderedAt}`, `${renderedAt}.`, 'x.y', [token]]) {
			expect(checkFormToken(secret, broken, key, now)).toBe('invalid')
		}
	})
})
