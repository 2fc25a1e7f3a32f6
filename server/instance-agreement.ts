// Instances behind one proxy must run with the same SITE_URL, SMTP_URL and VAPID settings
// (README, Deployment). Each instance records what it runs with in the database, refreshes the
// record while it runs and removes it when it stops; a starting instance compares itself with
// every instance seen lately. A different push key refuses the start; a different SITE_URL,
// SMTP_URL or VAPID_SUBJECT is logged as a warning (docs/decisions/019-instance-settings-agree.md).
import { hostname } from 'node:os'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { Config } from './env.ts'

const prefix = 'instance.'

/** What one instance runs with: nothing secret, as every instance and every backup can read it. */
export interface InstanceRecord {
	id: string
	siteUrl: string
	/** SMTP_URL's server, without user, password or parameters; empty: no mail. */
	mail: string
	vapidPublicKey: string
	/** VAPID_SUBJECT as set; empty: the default. */
	vapidSubject: string
	startedAt: string
	seenAt: string
}

export interface AgreementOptions {
	/** This instance's name in the records and in messages: host name and port. */
	id: string
	/** How often the record is refreshed. */
	refreshMs: number
	/** A record not refreshed for this long belongs to an instance that is gone (a crash). */
	liveMs: number
	now: () => Date
}

export type Agreement = { ok: true; stop: () => Promise<void> } | { ok: false; problem: string }

const defaults = { refreshMs: 30_000, liveMs: 90_000, now: () => new Date() }

/** SMTP_URL as it may be shown and stored: its scheme, host and port. */
function mailServer(smtpUrl: string): string {
	if (!smtpUrl) return ''
	const url = new URL(smtpUrl)
	return `${url.protocol}//${url.host}`
}

const key = (id: string) => `${prefix}${id}/`

function parse(value: string): InstanceRecord | undefined {
	try {
		const record = JSON.parse(value) as Partial<InstanceRecord>
		return typeof record.id === 'string' && typeof record.seenAt === 'string'
			? (record as InstanceRecord)
			: undefined
	} catch {
		return undefined
	}
}

const startedBefore = (a: InstanceRecord, b: InstanceRecord) =>
	a.startedAt < b.startedAt || (a.startedAt === b.startedAt && a.id < b.id)

/**
 * Records this instance and compares it with the others that are running. Call once the VAPID
 * pair is known (composeCanopy), before listening.
 */
export async function joinInstances(
	storage: Storage,
	config: Pick<Config, 'siteUrl' | 'smtpUrl' | 'vapidKeys' | 'vapidSubject' | 'port'>,
	vapidPublicKey: string,
	logger: Logger,
	options: Partial<AgreementOptions> = {},
): Promise<Agreement> {
	const { id, refreshMs, liveMs, now } = {
		...defaults,
		id: `${hostname()}:${config.port}`,
		...options,
	}
	const started = now().toISOString()
	const self: InstanceRecord = {
		id,
		siteUrl: config.siteUrl,
		mail: mailServer(config.smtpUrl),
		vapidPublicKey,
		vapidSubject: config.vapidSubject,
		startedAt: started,
		seenAt: started,
	}
	// Not settings.set: that announces a change, and every instance would empty its page cache.
	const write = async (record: InstanceRecord) => {
		await storage.settings.deleteByPrefix(key(id), [])
		await storage.settings.setIfAbsent(key(id), JSON.stringify(record))
	}
	const remove = () => storage.settings.deleteByPrefix(key(id), [])

	// Recorded before reading, so two instances starting together each see the other; of two
	// with different push keys, the one that started later gives way.
	await write(self)
	const stored = await storage.settings.all()
	const oldest = now().getTime() - liveMs
	const others = Object.entries(stored)
		.filter(([name]) => name.startsWith(prefix) && name !== key(id))
		.map(([, value]) => parse(value))
		.filter((record): record is InstanceRecord => record !== undefined)
		.filter((record) => Date.parse(record.seenAt) >= oldest)

	const keyHolder = others.find(
		(other) => other.vapidPublicKey !== vapidPublicKey && startedBefore(other, self),
	)
	if (keyHolder) {
		await remove()
		const ours = config.vapidKeys
			? `VAPID_PUBLIC_KEY here is ${vapidPublicKey}`
			: `this instance has no VAPID_PUBLIC_KEY, so it would use the pair kept in the database, ${vapidPublicKey}`
		return {
			ok: false,
			problem: `${ours}, but the instance ${keyHolder.id} (running since ${keyHolder.startedAt}) signs push messages with ${keyHolder.vapidPublicKey}. Browsers would subscribe with one key and be sent messages signed with the other, which push services refuse. Set the same VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY on every instance, or neither on any. To change the pair, stop every instance first.`,
		}
	}

	const compared = [
		['SITE_URL', (record: InstanceRecord) => record.siteUrl],
		['SMTP_URL', (record: InstanceRecord) => record.mail || '(not set)'],
		['VAPID_SUBJECT', (record: InstanceRecord) => record.vapidSubject || '(not set)'],
	] as const
	for (const [variable, value] of compared) {
		const differing = others.filter((other) => value(other) !== value(self))
		for (const other of differing) {
			logger.warn(
				`${variable} differs between instances: ${value(self)} here, ${value(other)} on ${other.id}. Set the same ${variable} on every instance (README, Deployment).`,
				{ variable, here: value(self), there: value(other), instance: other.id },
			)
		}
	}

	let refreshing: Promise<void> = Promise.resolve()
	const timer = setInterval(() => {
		refreshing = write({ ...self, seenAt: now().toISOString() }).catch((error) =>
			logger.debug('could not refresh this instance’s record', { error }),
		)
	}, refreshMs)
	timer.unref()
	return {
		ok: true,
		async stop() {
			clearInterval(timer)
			// After a refresh under way, or it would write the record again.
			await refreshing
			await remove().catch(() => {})
		},
	}
}
