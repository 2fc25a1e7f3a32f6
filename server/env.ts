// The environment, validated once at start. An invalid variable stops the process with one line
// that names it and says what it accepts.

import { createECDH } from 'node:crypto'
import { resolve } from 'node:path'
import { defaultRevisionsKept } from '#app/features/articles/publishing-rules.ts'
import { defaultRate, defaultSuspendAfter } from '#app/features/newsletter/newsletter-settings.ts'
import type { VapidKeys } from '#app/features/push/vapid-keys.server.ts'
import {
	ceilingImagePixels,
	defaultMaxImageMb,
	defaultMaxImagePixels,
} from '#app/features/uploads/image-types.ts'
import { parseTrustedProxies } from './client-ip.ts'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'

/** How the background jobs share work between instances (docs/decisions/017-jobs-across-instances.md). */
export interface JobTiming {
	/** JOB_INTERVAL_SECONDS: how often each periodic pass (retention, clean-ups) runs, site-wide. */
	intervalMs: number
	/**
	 * JOB_LEASE_SECONDS: how long a periodic pass stays claimed by an instance that stops renewing
	 * its claim (renewed every third of it while the pass runs): a dead instance's pass is taken
	 * over after at most this.
	 */
	leaseMs: number
	/**
	 * PUSH_LEASE_SECONDS: how long a batch of push notices stays claimed by the instance sending
	 * it. Not renewed, so it must outlast a whole batch; notices a dead instance had claimed and
	 * not sent go out from another one after it.
	 */
	pushLeaseMs: number
	/**
	 * WEBHOOK_LEASE_SECONDS: the same for a batch of webhook deliveries; what a dead instance had
	 * claimed and not sent goes out from another one after it.
	 */
	webhookLeaseMs: number
}

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
	/** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY; null: the pair Canopy made and keeps in the database. */
	vapidKeys: VapidKeys | null
	/** VAPID_SUBJECT; empty: the default (app/features/push/vapid-keys.server.ts). */
	vapidSubject: string
	jobs: JobTiming
	/**
	 * CONTACT_FORM_MIN_SECONDS: a contact message sent sooner than this after its form was shown is
	 * taken for a robot's (answered as accepted, not stored). 0 turns the check off.
	 */
	contactMinimumFillMs: number
	/** UPLOAD_MAX_MB: the largest image an editor may upload, in bytes (default 20 MB). */
	uploadMaxBytes: number
	/** UPLOAD_MAX_MEGAPIXELS: the most pixels an uploaded image may have (default 40 million). */
	uploadMaxPixels: number
	/**
	 * MOVE_IN_MAX_MB: the largest Ghost or WordPress export, and images archive, an admin may
	 * upload on the moving-in page, in bytes (default 256 MB; the command line has no limit). The
	 * upload must also arrive within Node's five-minute request timeout.
	 */
	moveInMaxBytes: number
	/** REVISIONS_KEPT: how many revisions of each article are kept, the newest (default 50). */
	revisionsKept: number
	/**
	 * METRICS_TOKEN: the bearer token Prometheus sends for /metrics (at least 32 characters);
	 * null: /metrics is not served (docs/decisions/035-metrics.md).
	 */
	metricsToken: string | null
	newsletter: {
		/** NEWSLETTER_RATE: newsletter mails per second each instance sends at most (default 10). */
		ratePerSecond: number
		/** NEWSLETTER_SUSPEND_AFTER: permanent refusals after which an address is suspended (default 3). */
		suspendAfter: number
	}
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

/** The bytes of unpadded URL-safe base64, or undefined when `value` is not that. */
function base64url(value: string): Buffer | undefined {
	return /^[A-Za-z0-9_-]+$/.test(value) ? Buffer.from(value, 'base64url') : undefined
}

function loadVapidKeys(env: Env): VapidKeys | null {
	const publicKey = read(env, 'VAPID_PUBLIC_KEY')
	const privateKey = read(env, 'VAPID_PRIVATE_KEY')
	if (!publicKey && !privateKey) return null
	if (!publicKey || !privateKey) {
		throw new ConfigError(
			'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both (npx web-push generate-vapid-keys makes a pair), or neither to use the pair Canopy made.',
		)
	}
	const publicBytes = base64url(publicKey)
	if (publicBytes?.length !== 65 || publicBytes[0] !== 0x04) {
		throw new ConfigError(
			`VAPID_PUBLIC_KEY must be a P-256 public key: 65 bytes, uncompressed, in URL-safe base64 without padding (87 characters starting with "B"; got "${publicKey}").`,
		)
	}
	const privateBytes = base64url(privateKey)
	// The private key's value is never repeated in a message: it may end up in a log.
	if (privateBytes?.length !== 32) {
		throw new ConfigError(
			`VAPID_PRIVATE_KEY must be a P-256 private key: 32 bytes in URL-safe base64 without padding (43 characters; got ${privateKey.length}).`,
		)
	}
	let derived: Buffer
	try {
		const ecdh = createECDH('prime256v1')
		ecdh.setPrivateKey(privateBytes)
		derived = ecdh.getPublicKey()
	} catch {
		throw new ConfigError('VAPID_PRIVATE_KEY is not a valid P-256 private key.')
	}
	if (!derived.equals(publicBytes)) {
		throw new ConfigError(
			'VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY: set the two keys of one pair.',
		)
	}
	return { publicKey, privateKey }
}

function loadVapidSubject(env: Env): string {
	const subject = read(env, 'VAPID_SUBJECT')
	if (!subject) return ''
	const accepts =
		'a mailto: address or an https: URL where push services can reach the site’s operator, like mailto:webmaster@example.org'
	const url = urlWithProtocol('VAPID_SUBJECT', subject, ['mailto:', 'https:'], accepts)
	const reachable =
		url.protocol === 'mailto:' ? /^[^@\s/]+@[^@\s/]+$/.test(url.pathname) : url.hostname !== ''
	if (!reachable) throw new ConfigError(`VAPID_SUBJECT must be ${accepts} (got "${subject}").`)
	return subject
}

/** One line per setting, in the order docs/configuration.md lists them: long, and flat on purpose. */
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

	const metricsToken = read(env, 'METRICS_TOKEN')
	if (metricsToken && !/^[\x21-\x7e]{32,200}$/.test(metricsToken)) {
		throw new ConfigError(
			'METRICS_TOKEN must be 32 to 200 printable characters without spaces (openssl rand -hex 32 makes one), or empty to serve no /metrics.',
		)
	}

	return {
		port,
		host,
		siteUrl: site.origin,
		metricsToken: metricsToken || null,
		dataDir: resolve(read(env, 'DATA_DIR') || 'data'),
		databaseUrl,
		smtpUrl,
		logLevel: logLevel as LogLevel,
		trustedProxies,
		vapidKeys: loadVapidKeys(env),
		vapidSubject: loadVapidSubject(env),
		jobs: loadJobTiming(env),
		contactMinimumFillMs: seconds(env, 'CONTACT_FORM_MIN_SECONDS', 3, 0, 60),
		uploadMaxBytes: megabytes(env, 'UPLOAD_MAX_MB', defaultMaxImageMb, 1, 100),
		moveInMaxBytes: megabytes(env, 'MOVE_IN_MAX_MB', 256, 1, 4_096),
		uploadMaxPixels:
			wholeNumber(env, 'UPLOAD_MAX_MEGAPIXELS', 'megapixels', defaultMaxImagePixels / 1e6, [
				1,
				ceilingImagePixels / 1e6,
			]) * 1_000_000,
		revisionsKept: wholeNumber(env, 'REVISIONS_KEPT', 'revisions', defaultRevisionsKept, [1, 1000]),
		newsletter: {
			ratePerSecond: wholeNumber(
				env,
				'NEWSLETTER_RATE',
				'mails per second',
				defaultRate,
				[1, 1000],
			),
			suspendAfter: wholeNumber(
				env,
				'NEWSLETTER_SUSPEND_AFTER',
				'refusals',
				defaultSuspendAfter,
				[1, 100],
			),
		},
	}
}

/** A whole number of `unit` from `min` to `max`; `fallback` when unset. */
function wholeNumber(
	env: Env,
	name: string,
	unit: string,
	fallback: number,
	[min, max]: [number, number],
): number {
	const text = read(env, name)
	if (!text) return fallback
	const value = Number(text)
	if (!/^\d+$/.test(text) || value < min || value > max) {
		throw new ConfigError(
			`${name} must be a whole number of ${unit} from ${min} to ${max} (got "${text}").`,
		)
	}
	return value
}

/** In milliseconds. */
function seconds(env: Env, name: string, fallback: number, min: number, max: number): number {
	return wholeNumber(env, name, 'seconds', fallback, [min, max]) * 1000
}

/** In bytes. */
function megabytes(env: Env, name: string, fallback: number, min: number, max: number): number {
	return wholeNumber(env, name, 'megabytes', fallback, [min, max]) * 1024 * 1024
}

function loadJobTiming(env: Env): JobTiming {
	return {
		intervalMs: seconds(env, 'JOB_INTERVAL_SECONDS', 3_600, 1, 7 * 86_400),
		leaseMs: seconds(env, 'JOB_LEASE_SECONDS', 60, 1, 3_600),
		// The default outlasts a batch of 100 notices sent 20 at a time, each round up to 30 s.
		pushLeaseMs: seconds(env, 'PUSH_LEASE_SECONDS', 600, 1, 86_400),
		// The default outlasts a batch of 50 deliveries sent 10 at a time, each up to 15 s.
		webhookLeaseMs: seconds(env, 'WEBHOOK_LEASE_SECONDS', 300, 1, 86_400),
	}
}
