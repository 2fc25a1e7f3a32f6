import { describe, expect, it } from 'vitest'
import { loadConfig } from './env.ts'

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
})
