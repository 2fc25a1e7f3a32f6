// The message retention job: every hour, delete contact messages older than the retention
// setting. Every instance may run it: deleting what is already gone does nothing.
import {
	deleteExpiredMessages,
	type RetentionOutcome,
	retentionDaysKey,
} from '#app/features/contact/message-retention.server.ts'
import type { Logger } from '../logger.ts'
import type { Storage } from '../storage/types.ts'

export interface MessageRetention {
	/** Runs one step now (tests). */
	runOnce(): Promise<RetentionOutcome>
	stop(): Promise<void>
}

export interface MessageRetentionOptions {
	intervalMs?: number
	clock?: () => Date
}

export function startMessageRetention(
	storage: Storage,
	logger: Logger,
	options: MessageRetentionOptions = {},
): MessageRetention {
	const intervalMs = options.intervalMs ?? 60 * 60 * 1000
	const clock = options.clock ?? (() => new Date())
	let chain: Promise<unknown> = Promise.resolve()
	// Said once per bad value, not every hour.
	let reported = ''

	const runOnce = (): Promise<RetentionOutcome> => {
		const step = chain.then(async (): Promise<RetentionOutcome> => {
			try {
				const outcome = await deleteExpiredMessages(storage, clock())
				if (!outcome.ok && outcome.error !== reported) {
					logger.warn(`messages: no old message deleted; fix the ${retentionDaysKey} setting`, {
						error: outcome.error,
					})
				}
				reported = outcome.ok ? '' : outcome.error
				if (outcome.ok && outcome.deleted > 0) {
					logger.info('messages: old messages deleted', {
						deleted: outcome.deleted,
						retentionDays: outcome.days,
					})
				}
				return outcome
			} catch (error) {
				logger.warn('messages: could not delete old messages; will retry', { error })
				return { ok: false, error: String(error) }
			}
		})
		chain = step
		return step
	}

	let stopped = false
	let timer: NodeJS.Timeout | undefined
	const tick = () => {
		runOnce().finally(() => {
			if (stopped) return
			timer = setTimeout(tick, intervalMs)
			timer.unref()
		})
	}
	tick()
	return {
		runOnce,
		async stop() {
			stopped = true
			clearTimeout(timer)
			await chain
		},
	}
}
