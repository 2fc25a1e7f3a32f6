import { Agent, createServer, get } from 'node:https'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { selfSignedCertificate } from '#tests/fixtures/self-signed-certificate.ts'
import {
	addressKind,
	checkedLookup,
	checkPushEndpoint,
	resolvePushHost,
} from './push-endpoint.server.ts'

const refused = (kind: string) => ({ ok: false, error: expect.stringContaining(kind) })

describe('checkPushEndpoint', () => {
	// Every way of writing an internal address that URL parsing accepts, and public ones.
	it.each([
		['https://127.0.0.1/push', 'a loopback address'],
		['https://127.1/push', 'a loopback address'],
		['https://0x7f.1/push', 'a loopback address'],
		['https://0x7f000001/push', 'a loopback address'],
		['https://2130706433/push', 'a loopback address'],
		['https://0177.0.0.1/push', 'a loopback address'],
		['https://017700000001/push', 'a loopback address'],
		['https://%31%32%37.0.0.1/push', 'a loopback address'],
		['https://127.0.0.1./push', 'a loopback address'],
		['https://127.255.255.254:8443/push', 'a loopback address'],
		['https://[::1]/push', 'a loopback address'],
		['https://[0:0:0:0:0:0:0:1]/push', 'a loopback address'],
		['https://[::ffff:127.0.0.1]/push', 'a loopback address'],
		['https://[::ffff:7f00:1]/push', 'a loopback address'],
		['https://[::ffff:10.1.2.3]/push', 'a private address'],
		['https://[64:ff9b::192.168.0.1]/push', 'a private address'],
		['https://[2002:a9fe:a9fe::]/push', 'a link-local address'],
		['https://[::127.0.0.1]/push', 'a reserved address'],
		['https://10.0.0.1/push', 'a private address'],
		['https://10.255.255.255/push', 'a private address'],
		['https://172.16.0.1/push', 'a private address'],
		['https://172.31.255.254/push', 'a private address'],
		['https://192.168.1.20/push', 'a private address'],
		['https://169.254.169.254/latest/meta-data', 'a link-local address'],
		['https://100.64.0.1/push', 'a carrier-grade NAT address'],
		['https://100.127.255.254/push', 'a carrier-grade NAT address'],
		['https://0.0.0.0/push', 'an unspecified address'],
		['https://0/push', 'an unspecified address'],
		['https://[::]/push', 'an unspecified address'],
		['https://224.0.0.1/push', 'a multicast address'],
		['https://239.255.255.250/push', 'a multicast address'],
		['https://[ff02::1]/push', 'a multicast address'],
		['https://255.255.255.255/push', 'a reserved address'],
		['https://192.0.2.10/push', 'a reserved address'],
		['https://[fe80::1]/push', 'a link-local address'],
		['https://[febf::1]/push', 'a link-local address'],
		['https://[fc00::1]/push', 'a unique-local address'],
		['https://[fd12:3456:789a::1]/push', 'a unique-local address'],
		['https://[2001:db8::1]/push', 'a reserved address'],
		['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/push', 'a reserved address'],
		['https://[100::1]/push', 'a reserved address'],
	])('refuses %s: %s', async (endpoint, kind) => {
		expect(await checkPushEndpoint(endpoint)).toMatchObject(refused(kind))
	})

	it.each([
		['https://8.8.8.8/push/abc', '8.8.8.8'],
		['https://1.1.1.1:8443/wpush/v2/abc', '1.1.1.1'],
		['https://172.32.0.1/push', '172.32.0.1'],
		['https://100.128.0.1/push', '100.128.0.1'],
		['https://192.169.0.1/push', '192.169.0.1'],
		['https://[2606:4700:4700::1111]/push', '2606:4700:4700::1111'],
		['https://[2a00:1450:4001:80b::200a]/fcm/send/x', '2a00:1450:4001:80b::200a'],
		['https://[::ffff:8.8.4.4]/push', '::ffff:808:404'],
		['https://[64:ff9b::8.8.8.8]/push', '64:ff9b::808:808'],
	])('allows the public %s', async (endpoint, address) => {
		expect(await checkPushEndpoint(endpoint)).toMatchObject({ ok: true, addresses: [address] })
	})

	it.each([
		['http://8.8.8.8/push', 'https:'],
		['ftp://8.8.8.8/push', 'https:'],
		['not a url', 'full https: address'],
		['https://user:secret@8.8.8.8/push', 'user name or password'],
		['https://localhost/push', 'localhost is this machine'],
		['https://LOCALHOST./push', 'localhost. is this machine'],
		['https://push.localhost:9443/push', 'push.localhost is this machine'],
		['https://intranet/push', 'intranet is not a full host name'],
	])('refuses %s (%s)', async (endpoint, message) => {
		expect(await checkPushEndpoint(endpoint)).toMatchObject(refused(message))
	})

	it('lets loopback through only when asked in code, for a local test push service', async () => {
		const options = { allowLoopback: true }
		expect(await checkPushEndpoint('https://127.0.0.1:9443/push', options)).toMatchObject({
			ok: true,
			addresses: ['127.0.0.1'],
		})
		expect(await checkPushEndpoint('https://[::1]:9443/push', options)).toMatchObject({ ok: true })
		expect(await checkPushEndpoint('https://localhost:9443/push', options)).toMatchObject({
			ok: true,
			addresses: expect.arrayContaining([expect.stringMatching(/^(127\.0\.0\.1|::1)$/)]),
		})
		// Every other internal address stays refused.
		for (const endpoint of ['https://10.0.0.1/push', 'https://[fe80::1]/push', 'https://0.0.0.0/'])
			expect(await checkPushEndpoint(endpoint, options)).toMatchObject({ ok: false })
	})
})

describe('resolvePushHost', () => {
	// Real lookups: localhost resolves to loopback on every machine, and .invalid never resolves.
	it('refuses a host name that resolves to an internal address', async () => {
		expect(await resolvePushHost('localhost')).toMatchObject(
			refused('localhost resolves to 127.0.0.1, a loopback address'),
		)
	})

	it('gives the addresses to connect to when every one is allowed', async () => {
		const resolved = await resolvePushHost('localhost', { allowLoopback: true })
		expect(resolved).toMatchObject({ ok: true })
		expect(resolved.ok && resolved.addresses).toContain('127.0.0.1')
	})

	it('refuses a host name that does not resolve', async () => {
		const resolved = await resolvePushHost('push.canopy.invalid')
		expect(resolved.ok).toBe(false)
		expect(!resolved.ok && resolved.error).toMatch(
			/push\.canopy\.invalid, (was not found|could not be looked up)/,
		)
	})
})

describe('addressKind', () => {
	it('reads IPv4 boundaries exactly', () => {
		expect(addressKind('9.255.255.255')).toBe('public')
		expect(addressKind('11.0.0.0')).toBe('public')
		expect(addressKind('172.15.255.255')).toBe('public')
		expect(addressKind('100.63.255.255')).toBe('public')
		expect(addressKind('223.255.255.255')).toBe('public')
		expect(addressKind('198.18.0.1')).toBe('reserved')
		expect(addressKind('push.example.net')).toBeUndefined()
	})
})

describe('checkedLookup', () => {
	// A name that resolves to loopback stands for one a push service's DNS turned to an internal
	// address after the reader subscribed: the agent must not connect, whatever the URL said.
	it('keeps an HTTPS agent off a name that resolves to a refused address, at connect time', async () => {
		const { cert, key } = await selfSignedCertificate('Canopy loopback')
		let reached = 0
		const server = createServer({ cert, key }, (_request, response) => {
			reached++
			response.end('ok')
		})
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
		const { port } = server.address() as AddressInfo
		const fetchWith = (agent: Agent) =>
			new Promise<string>((resolve, reject) => {
				get(`https://localhost:${port}/`, { agent, ca: cert }, (response) => {
					response.setEncoding('utf8')
					let text = ''
					response.on('data', (chunk: string) => {
						text += chunk
					})
					response.on('end', () => resolve(text))
				}).on('error', reject)
			})
		const guarded = new Agent({ lookup: checkedLookup() })
		const loopbackAllowed = new Agent({ lookup: checkedLookup({ allowLoopback: true }) })
		try {
			await expect(fetchWith(guarded)).rejects.toThrow(/localhost resolves to .*loopback/)
			expect(reached).toBe(0)
			await expect(fetchWith(loopbackAllowed)).resolves.toBe('ok')
			expect(reached).toBe(1)
		} finally {
			guarded.destroy()
			loopbackAllowed.destroy()
			server.close()
		}
	})
})
