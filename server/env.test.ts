import { describe, expect, it } from 'vitest'
import webPush from 'web-push'
import { loadConfig } from './env.ts'

const pair = webPush.generateVAPIDKeys()
const other = webPush.generateVAPIDKeys()

describe('loadConfig', () => {
	it('has working defaults', () => {
		const config = loadConfig({})
		expect(config).toMatchObject({
			port: 3000,
			host: '0.0.0.0',
			siteUrl: 'http://localhost:3000',
			databaseUrl: '',
			smtpUrl: '',
			logLevel: 'info',
		})
		expect(config.dataDir).toMatch(/data$/)
		// No /metrics unless an operator gives its token.
		expect(config.metricsToken).toBeNull()
	})

	it('takes a metrics token of 32 characters or more, and refuses a short or spaced one', () => {
		const token = 'f'.repeat(64)
		expect(loadConfig({ METRICS_TOKEN: token }).metricsToken).toBe(token)
		for (const bad of ['short', `${'x'.repeat(40)} y`])
			expect(() => loadConfig({ METRICS_TOKEN: bad })).toThrow(
				'METRICS_TOKEN must be 32 to 200 printable characters without spaces',
			)
	})

	it('takes valid values', () => {
		const config = loadConfig({
			PORT: '8080',
			SITE_URL: 'https://news.example.org/',
			DATABASE_URL: 'postgres://canopy@db/canopy',
			SMTP_URL: 'smtps://user:pass@mail.example.org:465',
			LOG_LEVEL: 'WARN',
		})
		expect(config).toMatchObject({
			port: 8080,
			siteUrl: 'https://news.example.org',
			logLevel: 'warn',
		})
	})

	it.each([
		[{ PORT: 'abc' }, 'PORT must be a whole number from 1 to 65535 (got "abc").'],
		[{ PORT: '70000' }, 'PORT must be a whole number from 1 to 65535 (got "70000").'],
		[
			{ SITE_URL: 'example.org' },
			'SITE_URL must be the public origin, like https://example.org (got "example.org").',
		],
		[{ SITE_URL: 'https://example.org/blog' }, 'SITE_URL must be an origin without a path'],
		[{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be empty (SQLite) or a postgres:// URL'],
		[{ SMTP_URL: 'http://mail' }, 'SMTP_URL must be empty or an smtp:// or smtps:// URL'],
		[
			{ LOG_LEVEL: 'loud' },
			'LOG_LEVEL must be one of debug, info, warn, error, silent (got "loud").',
		],
	])('refuses %j with a message naming the variable', (env, message) => {
		expect(() => loadConfig(env)).toThrow(message)
	})

	it('takes the jobs’ interval and leases in seconds, hourly with a minute’s lease by default', () => {
		expect(loadConfig({}).jobs).toEqual({
			intervalMs: 3_600_000,
			leaseMs: 60_000,
			pushLeaseMs: 600_000,
			webhookLeaseMs: 300_000,
		})
		expect(
			loadConfig({
				JOB_INTERVAL_SECONDS: '2',
				JOB_LEASE_SECONDS: ' 3 ',
				PUSH_LEASE_SECONDS: '5',
				WEBHOOK_LEASE_SECONDS: '7',
			}).jobs,
		).toEqual({ intervalMs: 2_000, leaseMs: 3_000, pushLeaseMs: 5_000, webhookLeaseMs: 7_000 })
		expect(() => loadConfig({ JOB_INTERVAL_SECONDS: 'hourly' })).toThrow(
			'JOB_INTERVAL_SECONDS must be a whole number of seconds from 1 to 604800 (got "hourly").',
		)
		expect(() => loadConfig({ JOB_LEASE_SECONDS: '0' })).toThrow(
			'JOB_LEASE_SECONDS must be a whole number of seconds from 1 to 3600 (got "0").',
		)
		expect(() => loadConfig({ PUSH_LEASE_SECONDS: '1.5' })).toThrow(
			'PUSH_LEASE_SECONDS must be a whole number of seconds from 1 to 86400 (got "1.5").',
		)
	})

	it('takes the contact form’s minimum time in seconds, 3 by default, 0 to 60', () => {
		expect(loadConfig({}).contactMinimumFillMs).toBe(3_000)
		expect(loadConfig({ CONTACT_FORM_MIN_SECONDS: '0' }).contactMinimumFillMs).toBe(0)
		expect(loadConfig({ CONTACT_FORM_MIN_SECONDS: '10' }).contactMinimumFillMs).toBe(10_000)
		expect(() => loadConfig({ CONTACT_FORM_MIN_SECONDS: '61' })).toThrow(
			'CONTACT_FORM_MIN_SECONDS must be a whole number of seconds from 0 to 60 (got "61").',
		)
	})

	it('takes the largest image upload in megabytes, 20 by default, 1 to 100', () => {
		const MB = 1024 * 1024
		expect(loadConfig({}).uploadMaxBytes).toBe(20 * MB)
		expect(loadConfig({ UPLOAD_MAX_MB: '1' }).uploadMaxBytes).toBe(MB)
		expect(loadConfig({ UPLOAD_MAX_MB: '100' }).uploadMaxBytes).toBe(100 * MB)
		for (const wrong of ['0', '101', '2.5', 'lots'])
			expect(() => loadConfig({ UPLOAD_MAX_MB: wrong })).toThrow(
				`UPLOAD_MAX_MB must be a whole number of megabytes from 1 to 100 (got "${wrong}").`,
			)
	})

	it('reads how many revisions of an article to keep, 50 unless told', () => {
		expect(loadConfig({}).revisionsKept).toBe(50)
		expect(loadConfig({ REVISIONS_KEPT: '5' }).revisionsKept).toBe(5)
		for (const wrong of ['0', '1001', 'many'])
			expect(() => loadConfig({ REVISIONS_KEPT: wrong })).toThrow(
				`REVISIONS_KEPT must be a whole number of revisions from 1 to 1000 (got "${wrong}").`,
			)
	})

	it('takes the most pixels an upload may have in megapixels, 40 by default, 1 to 100', () => {
		expect(loadConfig({}).uploadMaxPixels).toBe(40_000_000)
		expect(loadConfig({ UPLOAD_MAX_MEGAPIXELS: '24' }).uploadMaxPixels).toBe(24_000_000)
		for (const wrong of ['0', '101', '12.5'])
			expect(() => loadConfig({ UPLOAD_MAX_MEGAPIXELS: wrong })).toThrow(
				`UPLOAD_MAX_MEGAPIXELS must be a whole number of megapixels from 1 to 100 (got "${wrong}").`,
			)
	})

	it('takes a VAPID key pair and subject, or leaves them to Canopy', () => {
		expect(loadConfig({})).toMatchObject({ vapidKeys: null, vapidSubject: '' })
		const config = loadConfig({
			VAPID_PUBLIC_KEY: pair.publicKey,
			VAPID_PRIVATE_KEY: ` ${pair.privateKey} `,
			VAPID_SUBJECT: 'mailto:ops@example.org',
		})
		expect(config.vapidKeys).toEqual(pair)
		expect(config.vapidSubject).toBe('mailto:ops@example.org')
		expect(loadConfig({ VAPID_SUBJECT: 'https://example.org/contact' }).vapidSubject).toBe(
			'https://example.org/contact',
		)
	})

	it.each([
		[{ VAPID_PUBLIC_KEY: pair.publicKey }, 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together'],
		[{ VAPID_PRIVATE_KEY: pair.privateKey }, 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together'],
		[
			{ VAPID_PUBLIC_KEY: pair.publicKey.slice(1), VAPID_PRIVATE_KEY: pair.privateKey },
			'VAPID_PUBLIC_KEY must be a P-256 public key: 65 bytes',
		],
		[
			{ VAPID_PUBLIC_KEY: `${pair.publicKey}=`, VAPID_PRIVATE_KEY: pair.privateKey },
			'VAPID_PUBLIC_KEY must be a P-256 public key',
		],
		[
			// 65 bytes, but not an uncompressed point (0x04 first).
			{ VAPID_PUBLIC_KEY: `A${pair.publicKey.slice(1)}`, VAPID_PRIVATE_KEY: pair.privateKey },
			'VAPID_PUBLIC_KEY must be a P-256 public key',
		],
		[
			{ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: `${pair.privateKey}AA` },
			'VAPID_PRIVATE_KEY must be a P-256 private key: 32 bytes in URL-safe base64 without padding (43 characters; got 45).',
		],
		[
			{ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: 'A'.repeat(43) },
			'VAPID_PRIVATE_KEY is not a valid P-256 private key.',
		],
		[
			{ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: other.privateKey },
			'VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY',
		],
		[
			{ VAPID_SUBJECT: 'ops@example.org' },
			'VAPID_SUBJECT must be a mailto: address or an https: URL',
		],
		[
			{ VAPID_SUBJECT: 'http://example.org' },
			'VAPID_SUBJECT must be a mailto: address or an https: URL',
		],
		[
			{ VAPID_SUBJECT: 'mailto:nobody' },
			'VAPID_SUBJECT must be a mailto: address or an https: URL',
		],
	])('refuses VAPID settings %j with a message naming the variable', (env, message) => {
		expect(() => loadConfig(env)).toThrow(message)
	})

	it('never repeats the private key in a message', () => {
		let message = ''
		try {
			loadConfig({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: `${other.privateKey}x` })
		} catch (error) {
			message = String(error)
		}
		expect(message).toContain('VAPID_PRIVATE_KEY must be a P-256 private key')
		expect(message).not.toContain(other.privateKey)
	})
})
