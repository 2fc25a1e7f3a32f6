// Every background job Canopy runs, in one list (CanopyJobs), started here. The periodic ones are
// declared by their features, beside the logic they run (app/lib/jobs.ts gives their shape), and
// run once per interval across every instance (periodic.ts); the queue workers (mail-outbox.ts,
// push-delivery.ts, newsletter-delivery.ts, webhook-delivery.ts, image-versions.ts: their steps
// are the features') and the publishing clock
// (scheduled-publishing.ts) run on every instance, each item leased to one.
import { analyticsRollupJob } from '#app/features/analytics/retention.server.ts'
import { messageRetentionJob } from '#app/features/contact/message-retention.server.ts'
import type { NewsletterDeliveryOptions } from '#app/features/newsletter/delivery-worker.server.ts'
import { digestJob, unconfirmedCleanupJob } from '#app/features/newsletter/digest.server.ts'
import type { NewsletterMails } from '#app/features/newsletter/newsletter-content.server.ts'
import { privacyCleanupJob } from '#app/features/privacy/visitor-hash.server.ts'
import type { PushDeliveryOptions } from '#app/features/push/delivery-worker.server.ts'
import { pushCleanupJob } from '#app/features/push/retention.server.ts'
import type { VapidKeys } from '#app/features/push/vapid-keys.server.ts'
import { uploadCleaningJob } from '#app/features/uploads/clean-stored.server.ts'
import type { ImageVersionsOptions } from '#app/features/uploads/image-versions.server.ts'
import type { WebhookDeliveryOptions } from '#app/features/webhooks/delivery-worker.server.ts'
import { webhookCleanupJob } from '#app/features/webhooks/retention.server.ts'
import { changePruningJob } from '#app/lib/change-pruning.server.ts'
import type { JobContext, PassOutcome, PeriodicJobSpec, SettingJobSpec } from '#app/lib/jobs.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { Config } from '../env.ts'
import { idleWorker } from './batch-worker.ts'
import { type ImageVersionsWorker, startImageVersions } from './image-versions.ts'
import { type MailOutboxOptions, startMailOutbox } from './mail-outbox.ts'
import { type NewsletterDeliveryWorker, startNewsletterDelivery } from './newsletter-delivery.ts'
import { type PeriodicJob, type PeriodicTiming, startPeriodic } from './periodic.ts'
import { type PushDeliveryWorker, startPushDelivery } from './push-delivery.ts'
import { startScheduledPublishing } from './scheduled-publishing.ts'
import {
	type SearchStemsOptions,
	type SearchStemsWorker,
	startSearchStems,
} from './search-stems.ts'
import { startWebhookDelivery, type WebhookDeliveryWorker } from './webhook-delivery.ts'

/** The periodic jobs, by the name CanopyJobs turns each on or off with. */
export const periodicJobs = {
	/** The change feed keeps its newest 10,000 changes. */
	changePruning: changePruningJob,
	/** Contact messages older than `contact.retentionDays`. */
	messageRetention: messageRetentionJob,
	/** Past days' visitor-hash salts and stale rate-limit counters. */
	privacyCleanup: privacyCleanupJob,
	/** Dead push subscriptions; old delivery rows into totals. */
	pushCleanup: pushCleanupJob,
	/** Screen views older than `analytics.retentionDays` into daily totals. */
	analyticsRollup: analyticsRollupJob,
	/** Images stored before uploads were cleaned, made again without metadata. */
	uploadCleaning: uploadCleaningJob,
	/** Newsletter addresses never confirmed, a week on. */
	newsletterCleanup: unconfirmedCleanupJob,
	/** Finished webhook deliveries, a month on. */
	webhookCleanup: webhookCleanupJob,
} as const

export type PeriodicJobName = keyof typeof periodicJobs

export interface JobOptions extends PeriodicTiming {
	/** What a pass takes as now (tests). */
	clock?: () => Date
}

type ResultOf<Spec> =
	Spec extends SettingJobSpec<infer Done>
		? PassOutcome<Done>
		: Spec extends PeriodicJobSpec<infer Result>
			? Result
			: never

/** Starts one job on the runner: claimed once per interval across instances. */
export function startJob<Spec extends PeriodicJobSpec<unknown> | SettingJobSpec<object>>(
	spec: Spec,
	storage: Storage,
	logger: Logger,
	options: JobOptions = {},
): PeriodicJob<ResultOf<Spec>> {
	const job: JobContext = { storage, logger, clock: options.clock ?? (() => new Date()) }
	const pass = 'settingKey' in spec ? settingPass(spec, job) : () => spec.pass(job)
	return startPeriodic(
		storage,
		logger,
		{
			name: spec.name,
			pass: pass as () => Promise<ResultOf<Spec>>,
			afterFirstClaim: spec.afterFirstClaim && (() => spec.afterFirstClaim?.(job) as Promise<void>),
		},
		options,
	)
}

/** A setting job's pass: a setting that cannot be read said once per bad value, not every hour. */
function settingPass<Done>(spec: SettingJobSpec<Done>, job: JobContext) {
	const { logger } = job
	let reported = ''
	return async (): Promise<PassOutcome<Done>> => {
		try {
			const outcome = await spec.pass(job)
			if (!outcome.ok && outcome.error !== reported) {
				logger.warn(`${spec.area}: ${spec.skipped}; fix the ${spec.settingKey} setting`, {
					error: outcome.error,
				})
			}
			reported = outcome.ok ? '' : outcome.error
			const line = outcome.ok ? spec.report(outcome) : undefined
			if (line) logger.info(`${spec.area}: ${line[0]}`, line[1])
			return outcome
		} catch (error) {
			logger.warn(`${spec.area}: ${spec.failed}; will retry`, { error })
			return { ok: false, error: String(error) }
		}
	}
}

/** Starts every periodic job that `enabled` turns on; returns their stop functions. */
export function startPeriodicJobs(
	enabled: Record<PeriodicJobName, boolean>,
	storage: Storage,
	logger: Logger,
	options: JobOptions,
): (() => Promise<void>)[] {
	return (Object.keys(periodicJobs) as PeriodicJobName[])
		.filter((name) => enabled[name])
		.map((name) => startJob(periodicJobs[name], storage, logger, options).stop)
}

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
	/** false: no versions made (pages offer the images themselves); an object: its settings. */
	imageVersions: false | ImageVersionsOptions
	/** false: no newsletter worker (deliveries wait in the database); an object: its settings. */
	newsletterDelivery: false | NewsletterDeliveryOptions
	/** Every few minutes: the weekly digest made once its hour has come. */
	newsletterDigest: boolean
	/** Hourly: unconfirmed newsletter addresses deleted after a week. */
	newsletterCleanup: boolean
	/** false: no webhook worker (deliveries wait in the database); an object: its settings. */
	webhookDelivery: false | WebhookDeliveryOptions
	/** Hourly: finished webhook deliveries deleted from the log after 30 days. */
	webhookCleanup: boolean
	/** false: no stems made (searches match words as written); an object: its settings. */
	searchStems: false | SearchStemsOptions
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
	imageVersions: {},
	newsletterDelivery: {},
	newsletterDigest: true,
	newsletterCleanup: true,
	webhookDelivery: {},
	webhookCleanup: true,
	searchStems: {},
}

/** Starts what `jobs` turns on; `stops` ends them all (the caller adds its own). */
export function startJobs(
	jobs: CanopyJobs,
	parts: {
		storage: Storage
		logger: Logger
		config: Config
		vapidKeys: VapidKeys
		/** Who this process is when it claims a periodic job. */
		holder: string
		/** The newsletter's renderers, from the build (the server cannot import JSX itself). */
		newsletterMails: () => Promise<NewsletterMails>
	},
) {
	const { storage, logger, config } = parts
	const stops: (() => Promise<void> | void)[] = []
	if (jobs.scheduledPublishing) stops.push(startScheduledPublishing(storage, logger).stop)
	const mailOutbox = startMailOutbox(storage, logger, {
		...(jobs.mailOutbox || {}),
		// No worker: mail stays queued, exactly as without SMTP_URL.
		smtpUrl: jobs.mailOutbox ? config.smtpUrl : '',
		siteUrl: config.siteUrl,
	})
	stops.push(mailOutbox.stop)
	const pushDelivery: PushDeliveryWorker = jobs.pushDelivery
		? startPushDelivery(storage, logger, config, parts.vapidKeys, {
				leaseMs: config.jobs.pushLeaseMs,
				...jobs.pushDelivery,
			})
		: idleWorker({ claimed: 0, sent: 0, gone: 0, failed: 0, retried: 0 })
	stops.push(pushDelivery.stop)
	const imageVersions: ImageVersionsWorker = jobs.imageVersions
		? startImageVersions(storage, logger, jobs.imageVersions)
		: idleWorker({ claimed: 0, made: 0, retried: 0, failed: 0 })
	stops.push(imageVersions.stop)
	const newsletterDelivery: NewsletterDeliveryWorker = jobs.newsletterDelivery
		? startNewsletterDelivery(
				storage,
				logger,
				config,
				parts.newsletterMails,
				jobs.newsletterDelivery,
			)
		: idleWorker({ claimed: 0, sent: 0, retried: 0, refused: 0, failed: 0 })
	stops.push(newsletterDelivery.stop)
	const webhookDelivery: WebhookDeliveryWorker = jobs.webhookDelivery
		? startWebhookDelivery(storage, logger, config, {
				leaseMs: config.jobs.webhookLeaseMs,
				...jobs.webhookDelivery,
			})
		: idleWorker({ claimed: 0, delivered: 0, retried: 0, failed: 0 })
	stops.push(webhookDelivery.stop)
	const searchStems: SearchStemsWorker = jobs.searchStems
		? startSearchStems(storage, logger, jobs.searchStems)
		: idleWorker({ claimed: 0, stored: 0 })
	stops.push(searchStems.stop)
	const timing = {
		intervalMs: config.jobs.intervalMs,
		leaseMs: config.jobs.leaseMs,
		holder: parts.holder,
	}
	stops.push(...startPeriodicJobs(jobs, storage, logger, timing))
	// The digest is due at an hour: looked for every five minutes, not hourly.
	if (jobs.newsletterDigest)
		stops.push(
			startJob(digestJob, storage, logger, {
				...timing,
				intervalMs: Math.min(timing.intervalMs, 5 * 60_000),
			}).stop,
		)
	return {
		mailOutbox,
		pushDelivery,
		imageVersions,
		newsletterDelivery,
		webhookDelivery,
		searchStems,
		stops,
	}
}
