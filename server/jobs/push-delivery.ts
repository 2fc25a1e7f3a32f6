// The push delivery job: every second, and at once when woken after a publish, a step of
// app/features/push/delivery-worker.server.ts on the queue worker's loop (batch-worker.ts).
import {
	type PushDeliveryOptions,
	type PushDeliveryOutcome,
	pushDeliverySteps,
} from '#app/features/push/delivery-worker.server.ts'
import type { VapidKeys } from '#app/features/push/vapid-keys.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { Config } from '../env.ts'
import { startBatchWorker } from './batch-worker.ts'

export interface PushDeliveryWorker {
	/** Sends due deliveries soon rather than at the next tick: call it after publishing. */
	wake(): void
	/** Runs one step now (tests). */
	runOnce(): Promise<PushDeliveryOutcome>
	/**
	 * Stops the timer and waits for a step under way, for at most `stopGraceMs`: sends still
	 * hanging then are left to their leases, as when the process dies.
	 */
	stop(): Promise<void>
}

export function startPushDelivery(
	storage: Storage,
	logger: Logger,
	config: Pick<Config, 'siteUrl' | 'vapidSubject'>,
	vapidKeys: VapidKeys,
	options: PushDeliveryOptions = {},
): PushDeliveryWorker {
	const { step, nothing, batchSize, release } = pushDeliverySteps(
		storage,
		logger,
		config,
		vapidKeys,
		options,
	)
	return startBatchWorker({
		step,
		nothing,
		failed: 'push: could not read the deliveries',
		batchSize,
		intervalMs: options.intervalMs ?? 1_000,
		logger,
		stopGraceMs: options.stopGraceMs ?? 10_000,
		release,
	})
}
