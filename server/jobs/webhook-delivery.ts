// The webhook delivery job: every second, and at once when woken after a change on the feed, a
// step of app/features/webhooks/delivery-worker.server.ts on the queue worker's loop
// (batch-worker.ts).
import {
	type WebhookDeliveryOptions,
	type WebhookDeliveryOutcome,
	webhookDeliverySteps,
} from '#app/features/webhooks/delivery-worker.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { Config } from '../env.ts'
import { startBatchWorker } from './batch-worker.ts'

export interface WebhookDeliveryWorker {
	/** Sends due deliveries soon rather than at the next tick: call it after an event. */
	wake(): void
	/** Runs one step now (tests). */
	runOnce(): Promise<WebhookDeliveryOutcome>
	/**
	 * Stops the timer and waits for a step under way, for at most `stopGraceMs`: sends still
	 * hanging then are left to their leases, as when the process dies.
	 */
	stop(): Promise<void>
}

export function startWebhookDelivery(
	storage: Storage,
	logger: Logger,
	config: Pick<Config, 'siteUrl'>,
	options: WebhookDeliveryOptions = {},
): WebhookDeliveryWorker {
	const { step, nothing, batchSize, release } = webhookDeliverySteps(
		storage,
		logger,
		config,
		options,
	)
	return startBatchWorker({
		step,
		nothing,
		failed: 'webhooks: could not read the deliveries',
		batchSize,
		intervalMs: options.intervalMs ?? 1_000,
		logger,
		stopGraceMs: options.stopGraceMs ?? 10_000,
		release,
	})
}
