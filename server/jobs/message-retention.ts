// The message retention job: every hour, once across instances, delete contact messages older
// than the retention setting. One DELETE: a pass cut off deleted all of it or none.
import {
	deleteExpiredMessages,
	messageRetention,
} from '#app/features/contact/message-retention.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { type RetentionJobOptions, startRetentionJob } from './retention-job.ts'

export function startMessageRetention(
	storage: Storage,
	logger: Logger,
	options: RetentionJobOptions = {},
) {
	return startRetentionJob(
		storage,
		{
			name: 'message-retention',
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
