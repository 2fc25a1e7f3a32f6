// The scheduled-publishing job: every second, publish the drafts whose time has come. Each runs
// in one transaction that takes the due rows (FOR UPDATE SKIP LOCKED on PostgreSQL), so with
// several instances every article is published once; a missed tick is caught up by the next.
import { publishDueArticles } from '#app/features/articles/editor.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { retryWarning } from './retry-warning.ts'

export interface ScheduledPublishing {
	/** Runs one step now (tests, and after start). */
	runOnce(): Promise<number>
	stop(): Promise<void>
}

export function startScheduledPublishing(
	storage: Storage,
	logger: Logger,
	intervalMs = 1_000,
): ScheduledPublishing {
	let timer: NodeJS.Timeout | undefined
	let running: Promise<number> = Promise.resolve(0)
	let stopped = false
	const warn = retryWarning(logger, 'scheduled publishing failed')

	const runOnce = () => {
		running = running.then(async () => {
			try {
				const published = await publishDueArticles(storage)
				for (const article of published)
					logger.info('scheduled article published', { slug: article.slug, id: article.id })
				return published.length
			} catch (error) {
				warn(error)
				return 0
			}
		})
		return running
	}
	const tick = () => {
		if (stopped) return
		runOnce().finally(() => {
			if (!stopped) {
				timer = setTimeout(tick, intervalMs)
				timer.unref()
			}
		})
	}
	tick()
	return {
		runOnce,
		async stop() {
			stopped = true
			clearTimeout(timer)
			await running
		},
	}
}
