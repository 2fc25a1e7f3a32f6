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
import type { NewsletterMails } from '#app/features/newsletter/newsletter-content.server.ts'
import type { VapidKeys } from '#app/features/push/vapid-keys.server.ts'
import { loadVapidKeys } from '#app/features/push/vapid-keys.server.ts'
import {
	type ConfigService,
	createConfigService,
} from '#app/features/remote-config/config.server.ts'
import { storageOutage } from '#storage/port/unavailable.ts'
import { withPublicReadCache } from '#storage/public-read-cache.ts'
import type { StorageHandle } from '#storage/storage-handle.ts'
import { createRequestListener } from './app.ts'
import type { AppDependencies } from './app-dependencies.ts'
import { processName } from './instance.ts'
import type { ImageVersionsWorker } from './jobs/image-versions.ts'
import { allJobs, type CanopyJobs, startJobs } from './jobs/jobs.ts'
import type { MailOutbox } from './jobs/mail-outbox.ts'
import type { NewsletterDeliveryWorker } from './jobs/newsletter-delivery.ts'
import type { PushDeliveryWorker } from './jobs/push-delivery.ts'
import type { SearchStemsWorker } from './jobs/search-stems.ts'
import type { WebhookDeliveryWorker } from './jobs/webhook-delivery.ts'
import { createLiveBroker, type LiveBroker } from './live/broker.ts'
import { liveTopics } from './live/streams.ts'
import { createMoveInRunner } from './portable/move-in-runner.ts'
import { openSiteAuth } from './site-auth.ts'

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
	/** Sends the newsletter's mails; woken when an article is published. */
	newsletterDelivery: NewsletterDeliveryWorker
	/** Sends webhook deliveries; woken by every change on the feed. */
	webhookDelivery: WebhookDeliveryWorker
	/** Makes uploaded images' versions; woken after an upload. */
	imageVersions: ImageVersionsWorker
	/** Makes saved articles' search stems; woken by every change on the feed. */
	searchStems: SearchStemsWorker
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

	// Every background job this process runs (server/jobs/jobs.ts).
	const {
		mailOutbox,
		pushDelivery,
		imageVersions,
		newsletterDelivery,
		webhookDelivery,
		searchStems,
		stops,
	} = startJobs(jobs, {
		storage,
		logger,
		config,
		vapidKeys,
		holder: options.instance ?? processName,
		newsletterMails: () => newsletterMailsOf(options.build),
	})
	// Publishing writes the deliveries and a change in one transaction, on any instance: the change
	// feed wakes the worker, whichever path (editor, API, schedule) made the article public.
	stops.push(broker.onChanges(() => pushDelivery.wake()))
	stops.push(broker.onChanges(() => newsletterDelivery.wake()))
	stops.push(broker.onChanges(() => webhookDelivery.wake()))
	// A save makes its article's stems due; the worker makes them out of the save's transaction.
	stops.push(broker.onChanges(() => searchStems.wake()))
	stops.push(broker.onChanges(remoteConfig.onChanges))

	const screenViews = createScreenViewBuffer(storage, logger, options.analytics?.buffer)
	// Loaded only where an operator asked for /metrics (METRICS_TOKEN).
	const metrics = config.metricsToken
		? (await import('./metrics.ts')).createMetrics({ storage, broker, token: config.metricsToken })
		: undefined

	const moveIn = createMoveInRunner(config, logger, storage)
	// Requests read what every reader sees from memory between changes (decision 038); the jobs
	// and the broker above read the database itself.
	const publicReads = withPublicReadCache(storage)
	// Before the page cache's own listener (made with the request listener below): a page rendered
	// once the page cache has heard of a change must not be rendered from reads kept before it.
	// (Each hears by its own wake-up; on SQLite another process's change reaches each at its own
	// poll, and the page cache would otherwise keep a page made from the old reads.)
	stops.push(broker.onChanges(publicReads.forget))
	const listener = createRequestListener({
		...options,
		storage: publicReads.storage,
		moveIn,
		broker,
		metrics,
		auth,
		wakeMailOutbox: mailOutbox.wake,
		wakeImageVersions: imageVersions.wake,
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
		newsletterDelivery,
		webhookDelivery,
		imageVersions,
		searchStems,
		screenViews,
		vapidKeys,
		remoteConfig,
		listener,
		async close() {
			moveIn.stop()
			publicReads.stop()
			broker.close()
			for (const stop of stops) await stop()
			// After the server has closed: views queued until the very end are written too.
			await screenViews.close()
		},
	}
}

/** The newsletter's renderers, as the build's entry module exports them (app/entry.server.tsx). */
async function newsletterMailsOf(build: CanopyOptions['build']): Promise<NewsletterMails> {
	const current = typeof build === 'function' ? await build() : build
	const entry = current.entry.module as unknown as {
		loadNewsletterMails: () => Promise<NewsletterMails>
	}
	return entry.loadNewsletterMails()
}
