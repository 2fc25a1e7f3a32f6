// Canopy's running parts, put together in one place: sign-in, the live broker, the background
// jobs and the request listener. server/index.ts, the test app and the benchmarks all start
// Canopy through this, so a part added here reaches every one of them.
import type { CollectOptions } from '#app/features/analytics/collect.server.ts'
import {
	createScreenViewBuffer,
	type ScreenViewBuffer,
	type ScreenViewBufferOptions,
} from '#app/features/analytics/ingest.server.ts'
import type { Auth } from '#app/features/auth/auth.server.ts'
import type { PushDeliveryOptions } from '#app/features/push/delivery-worker.server.ts'
import type { VapidKeys } from '#app/features/push/vapid-keys.server.ts'
import { loadVapidKeys } from '#app/features/push/vapid-keys.server.ts'
import {
	type ConfigService,
	createConfigService,
} from '#app/features/remote-config/config.server.ts'
import { storageOutage } from '#storage/port/unavailable.ts'
import type { StorageHandle } from '#storage/storage-handle.ts'
import { createRequestListener } from './app.ts'
import type { AppDependencies } from './app-dependencies.ts'
import { processName } from './instance.ts'
import { startPeriodicJobs } from './jobs/jobs.ts'
import { type MailOutbox, type MailOutboxOptions, startMailOutbox } from './jobs/mail-outbox.ts'
import { type PushDeliveryWorker, startPushDelivery } from './jobs/push-delivery.ts'
import { startScheduledPublishing } from './jobs/scheduled-publishing.ts'
import { createLiveBroker, type LiveBroker } from './live/broker.ts'
import { liveTopics } from './live/streams.ts'
import { openSiteAuth } from './site-auth.ts'

export interface CanopyJobs {
	scheduledPublishing: boolean
	/** false: no outbox worker (mail waits in the database); an object: its settings. */
	mailOutbox: false | Partial<Omit<MailOutboxOptions, 'smtpUrl' | 'siteUrl'>>
	messageRetention: boolean
	privacyCleanup: boolean
	changePruning: boolean
	analyticsRollup: boolean
	/** false: no push delivery worker (deliveries wait in the database); an object: its settings. */
	pushDelivery: false | PushDeliveryOptions
	/** Hourly: dead subscriptions deleted, old delivery rows retired into per-article totals. */
	pushCleanup: boolean
	/** At start, then hourly while any are left: older images made again without metadata. */
	uploadCleaning: boolean
}

/** Every job, as a real instance runs them. */
export const allJobs: CanopyJobs = {
	scheduledPublishing: true,
	mailOutbox: {},
	messageRetention: true,
	privacyCleanup: true,
	changePruning: true,
	analyticsRollup: true,
	pushDelivery: {},
	pushCleanup: true,
	uploadCleaning: true,
}

export interface CanopyOptions
	extends Pick<
		AppDependencies,
		'config' | 'logger' | 'build' | 'mode' | 'clientDir' | 'pageCache' | 'stream' | 'push'
	> {
	/** The adapter's handle: the port for every part, and better-auth's database for sign-in. */
	storage: StorageHandle
	/** Which background jobs this process runs (default: all of them). */
	jobs?: Partial<CanopyJobs>
	/**
	 * Who this process is when it claims a periodic job (default: host:pid:random). Tests running
	 * two instances in one process name each.
	 */
	instance?: string
	/** Screen views: the write queue's settings, the collect endpoint's clock and rate limit. */
	analytics?: { buffer?: Partial<ScreenViewBufferOptions>; collect?: Partial<CollectOptions> }
}

export interface Canopy {
	auth: Auth
	broker: LiveBroker
	mailOutbox: MailOutbox
	/** Sends new articles' push notices; woken when an article is published. */
	pushDelivery: PushDeliveryWorker
	/** Screen views waiting for their batched write (POST /api/collect). */
	screenViews: ScreenViewBuffer
	/** The pair push requests are signed with: VAPID_* or the one kept in the database. */
	vapidKeys: VapidKeys
	/** The Node request listener: give it to http.createServer. */
	listener: ReturnType<typeof createRequestListener>
	remoteConfig: ConfigService
	/**
	 * Stops the jobs and the broker and writes queued screen views; the caller closes its server
	 * first, then the storage.
	 */
	close(): Promise<void>
}

/** Call after storage.migrate(). */
export async function composeCanopy(options: CanopyOptions): Promise<Canopy> {
	const { config, storage, logger } = options
	const jobs = { ...allJobs, ...options.jobs }
	const auth = await openSiteAuth(storage, config.siteUrl, logger)
	// Made at first start when not configured, so the key is there before any browser asks.
	const vapidKeys = await loadVapidKeys(storage, config.vapidKeys)
	const broker = createLiveBroker(storage, liveTopics, {
		heartbeatMs: options.stream?.heartbeatMs,
		// While the database is away, streams stay open and catch up once it is back.
		onError: (error) =>
			storageOutage(error)
				? logger.warn('live: the change feed waits for the database', { error: String(error) })
				: logger.error('live: could not read the change feed', { error }),
	})
	await broker.start()
	// Read before the first request: every page is rendered with the configuration's values.
	const remoteConfig = await createConfigService(storage, logger)

	const stops: (() => Promise<void> | void)[] = []
	// The periodic passes run once per interval across every instance (periodic.ts).
	const timing = {
		intervalMs: config.jobs.intervalMs,
		leaseMs: config.jobs.leaseMs,
		holder: options.instance ?? processName,
	}
	if (jobs.scheduledPublishing) stops.push(startScheduledPublishing(storage, logger).stop)
	const mailOutbox = startMailOutbox(storage, logger, {
		...(jobs.mailOutbox || {}),
		// No worker: mail stays queued, exactly as without SMTP_URL.
		smtpUrl: jobs.mailOutbox ? config.smtpUrl : '',
		siteUrl: config.siteUrl,
	})
	stops.push(mailOutbox.stop)
	const pushDelivery = jobs.pushDelivery
		? startPushDelivery(storage, logger, config, vapidKeys, {
				leaseMs: config.jobs.pushLeaseMs,
				...jobs.pushDelivery,
			})
		: {
				wake() {},
				runOnce: async () => ({ claimed: 0, sent: 0, gone: 0, failed: 0, retried: 0 }),
				async stop() {},
			}
	stops.push(pushDelivery.stop)
	// Publishing writes the deliveries and a change in one transaction, on any instance: the change
	// feed wakes the worker, whichever path (editor, API, schedule) made the article public.
	stops.push(broker.onChanges(() => pushDelivery.wake()))
	stops.push(broker.onChanges(remoteConfig.onChanges))
	// The periodic jobs, each once per interval across every instance (server/jobs/jobs.ts).
	stops.push(...startPeriodicJobs(jobs, storage, logger, timing))

	const screenViews = createScreenViewBuffer(storage, logger, options.analytics?.buffer)

	const listener = createRequestListener({
		...options,
		broker,
		auth,
		wakeMailOutbox: mailOutbox.wake,
		screenViews,
		collect: options.analytics?.collect,
		vapidPublicKey: vapidKeys.publicKey,
		remoteConfig,
	})
	return {
		auth,
		broker,
		mailOutbox,
		pushDelivery,
		screenViews,
		vapidKeys,
		remoteConfig,
		listener,
		async close() {
			broker.close()
			for (const stop of stops) await stop()
			// After the server has closed: views queued until the very end are written too.
			await screenViews.close()
		},
	}
}
