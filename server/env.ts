// The environment, validated once at start. An invalid variable stops the process with one line
// that names it and says what it accepts.
import { resolve } from 'node:path'
import { parseTrustedProxies } from './client-ip.ts'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'

export interface Config {
	port: number
	host: string
	siteUrl: string
	dataDir: string
	databaseUrl: string
	smtpUrl: string
	logLevel: LogLevel
	/** Proxies whose X-Forwarded-For is believed (TRUST_PROXY). */
	trustedProxies: string[]
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>

function read(env: Env, name: string): string {
	return (env[name] ?? '').trim()
}

function urlWithProtocol(name: string, value: string, protocols: string[], accepts: string): URL {
	let url: URL
	try {
		url = new URL(value)
	} catch {
		throw new ConfigError(`${name} must be ${accepts} (got "${value}").`)
	}
	if (!protocols.includes(url.protocol))
		throw new ConfigError(`${name} must be ${accepts} (got "${value}").`)
	return url
}

export function loadConfig(env: Env): Config {
	const portText = read(env, 'PORT') || '3000'
	const port = Number(portText)
	if (!/^\d+$/.test(portText) || port < 1 || port > 65535) {
		throw new ConfigError(`PORT must be a whole number from 1 to 65535 (got "${portText}").`)
	}
	const host = read(env, 'HOST') || '0.0.0.0'
	if (/[\s/]/.test(host))
		throw new ConfigError(`HOST must be a host name or IP address to listen on (got "${host}").`)

	const siteText = read(env, 'SITE_URL') || `http://localhost:${port}`
	const site = urlWithProtocol(
		'SITE_URL',
		siteText,
		['http:', 'https:'],
		'the public origin, like https://example.org',
	)
	if (site.pathname !== '/' || site.search || site.hash) {
		throw new ConfigError(
			`SITE_URL must be an origin without a path, like https://example.org (got "${siteText}").`,
		)
	}

	const databaseUrl = read(env, 'DATABASE_URL')
	if (databaseUrl) {
		urlWithProtocol(
			'DATABASE_URL',
			databaseUrl,
			['postgres:', 'postgresql:'],
			'empty (SQLite) or a postgres:// URL',
		)
	}
	const smtpUrl = read(env, 'SMTP_URL')
	if (smtpUrl)
		urlWithProtocol('SMTP_URL', smtpUrl, ['smtp:', 'smtps:'], 'empty or an smtp:// or smtps:// URL')

	const logLevel = (read(env, 'LOG_LEVEL') || 'info').toLowerCase()
	if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel)) {
		throw new ConfigError(
			`LOG_LEVEL must be one of debug, info, warn, error, silent (got "${logLevel}").`,
		)
	}

	const trustedProxies = parseTrustedProxies(read(env, 'TRUST_PROXY'))
	if (!trustedProxies) {
		throw new ConfigError(
			`TRUST_PROXY must be empty or a comma-separated list of proxy IP addresses (got "${read(env, 'TRUST_PROXY')}").`,
		)
	}

	return {
		port,
		host,
		siteUrl: site.origin,
		dataDir: resolve(read(env, 'DATA_DIR') || 'data'),
		databaseUrl,
		smtpUrl,
		logLevel: logLevel as LogLevel,
		trustedProxies,
	}
}
