// The newsletter delivery job: every second, and at once when woken (a publish on any instance,
// through the change feed), a step of app/features/newsletter/delivery-worker.server.ts on the
// queue workers' loop (batch-worker.ts). Without SMTP_URL it does not run: deliveries wait.
import {
	type NewsletterDeliveryOptions,
	type NewsletterDeliveryOutcome,
	newsletterDeliverySteps,
} from '#app/features/newsletter/delivery-worker.server.ts'
import type { NewsletterMails } from '#app/features/newsletter/newsletter-content.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { Config } from '../env.ts'
import { type BatchWorker, idleWorker, startBatchWorker } from './batch-worker.ts'

export type NewsletterDeliveryWorker = BatchWorker<NewsletterDeliveryOutcome>

export function startNewsletterDelivery(
	storage: Storage,
	logger: Logger,
	config: Pick<Config, 'siteUrl' | 'smtpUrl' | 'newsletter'>,
	mails: () => Promise<NewsletterMails>,
	options: NewsletterDeliveryOptions = {},
): NewsletterDeliveryWorker {
	const idle = { claimed: 0, sent: 0, retried: 0, refused: 0, failed: 0 }
	if (!config.smtpUrl) return idleWorker(idle)
	const { step, nothing, batchSize, release } = newsletterDeliverySteps(
		storage,
		logger,
		config,
		mails,
		{ ...config.newsletter, ...options },
	)
	return startBatchWorker({
		step,
		nothing,
		failed: 'newsletter: could not read the deliveries',
		batchSize,
		intervalMs: options.intervalMs ?? 1_000,
		logger,
		stopGraceMs: 10_000,
		release,
	})
}
