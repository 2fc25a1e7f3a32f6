// The warning a job logs when a step fails and will be tried again. A job that steps every second
// would log a line a second for as long as the database is away, and storage already logs the
// outage itself once, when it starts and when it ends (open-storage.ts). So while the database is
// unavailable a job says so once a minute, with how many alike it left out; any other failure is
// logged every time.
import type { Logger } from '#app/lib/logger.ts'
import { storageOutage } from '#storage/port/unavailable.ts'

export const outageQuietMs = 60_000

/** `warn(error)` logs "<message>; will retry", quietened as above. */
export function retryWarning(
	logger: Logger,
	message: string,
	now: () => number = Date.now,
): (error: unknown, fields?: Record<string, unknown>) => void {
	let quietUntil = Number.NEGATIVE_INFINITY
	let leftOut = 0
	return (error, fields = {}) => {
		if (storageOutage(error)) {
			if (now() < quietUntil) {
				leftOut++
				return
			}
			quietUntil = now() + outageQuietMs
			const alike = leftOut > 0 ? { alikeLeftOut: leftOut } : {}
			leftOut = 0
			logger.warn(`${message}; will retry`, { ...fields, error, ...alike })
			return
		}
		logger.warn(`${message}; will retry`, { ...fields, error })
	}
}
