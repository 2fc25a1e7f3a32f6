import { describe, expect, it } from 'vitest'
import { freshness, resendAfterMs, type SentRecord } from './notify.client.ts'

const now = Date.UTC(2026, 10, 21, 12)
const sent: SentRecord = { endpoint: 'https://push.example/a', key: 'KEY1', at: now - 1_000 }

describe('freshness', () => {
	it('does nothing for a subscription sent within the week, with the site’s current key', () => {
		expect(freshness(sent, { endpoint: sent.endpoint, key: 'KEY1' }, 'KEY1', now)).toBe('current')
	})

	it('sends again after 7 days', () => {
		const weekOld = { ...sent, at: now - resendAfterMs }
		expect(freshness(weekOld, { endpoint: sent.endpoint, key: 'KEY1' }, 'KEY1', now)).toBe('resend')
		const almost = { ...sent, at: now - resendAfterMs + 60_000 }
		expect(freshness(almost, { endpoint: sent.endpoint, key: 'KEY1' }, 'KEY1', now)).toBe('current')
	})

	it('sends again when never sent from this browser, or when the browser changed the endpoint', () => {
		expect(freshness(undefined, { endpoint: sent.endpoint, key: 'KEY1' }, 'KEY1', now)).toBe(
			'resend',
		)
		expect(freshness(sent, { endpoint: 'https://push.example/b', key: 'KEY1' }, 'KEY1', now)).toBe(
			'resend',
		)
	})

	it('subscribes again when the site’s key changed, even if sent a minute ago', () => {
		expect(freshness(sent, { endpoint: sent.endpoint, key: 'KEY1' }, 'KEY2', now)).toBe(
			'resubscribe',
		)
	})

	it('cannot tell a key it does not know: sends again rather than subscribing again', () => {
		expect(freshness(undefined, { endpoint: sent.endpoint, key: undefined }, 'KEY2', now)).toBe(
			'resend',
		)
	})
})
