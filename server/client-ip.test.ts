import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { clientIp, parseTrustedProxies } from './client-ip.ts'

function request(remoteAddress: string, forwardedFor?: string): IncomingMessage {
	return {
		socket: { remoteAddress },
		headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
	} as unknown as IncomingMessage
}

describe('clientIp', () => {
	it('uses the socket and ignores X-Forwarded-For when no proxy is trusted', () => {
		expect(clientIp(request('203.0.113.7', '1.2.3.4'), [])).toBe('203.0.113.7')
		expect(clientIp(request('::ffff:203.0.113.7'), [])).toBe('203.0.113.7')
	})

	it('believes a trusted proxy, walking back past each trusted hop', () => {
		const proxies = ['127.0.0.1', '10.0.0.2']
		expect(clientIp(request('127.0.0.1', '198.51.100.4'), proxies)).toBe('198.51.100.4')
		expect(clientIp(request('127.0.0.1', '6.6.6.6, 198.51.100.4, 10.0.0.2'), proxies)).toBe(
			'198.51.100.4',
		)
	})

	it('does not believe a proxy that is not named, nor a malformed hop', () => {
		expect(clientIp(request('192.0.2.9', '198.51.100.4'), ['127.0.0.1'])).toBe('192.0.2.9')
		expect(clientIp(request('127.0.0.1', 'not-an-ip'), ['127.0.0.1'])).toBe('127.0.0.1')
	})
})

describe('parseTrustedProxies', () => {
	it('reads a list of addresses and refuses anything else', () => {
		expect(parseTrustedProxies('')).toEqual([])
		expect(parseTrustedProxies('127.0.0.1, ::1')).toEqual(['127.0.0.1', '::1'])
		expect(parseTrustedProxies('127.0.0.1,proxy.local')).toBeUndefined()
	})
})
