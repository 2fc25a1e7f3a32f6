// The message retention job: every hour, delete contact messages older than the retention
// setting. Every instance may run it: deleting what is already gone does nothing.
import {
	deleteExpiredMessages,
	messageRetention,
} from '#app/features/contact/message-retention.server.ts'
import type { Logger } from '../logger.ts'
import type { Storage } from '../storage/types.ts'
import { type RetentionJobOptions, startRetentionJob } from './retention-job.ts'

export function startMessageRetention(
	storage: Storage,
	logger: Logger,
	options: RetentionJobOptions = {},
) {
	return startRetentionJob(
		{
			area: 'messages',
			settingKey: messageRetention.key,
			skipped: 'no old message deleted',
			failed: 'could not delete old messages',
			pass: (now) => deleteExpiredMessages(storage, now),
			report: ({ deleted, days }) =>
				deleted > 0 ? ['old messages deleted', { deleted, retentionDays: days }] : undefined,
		},
		logger,
		options,
	)
}
