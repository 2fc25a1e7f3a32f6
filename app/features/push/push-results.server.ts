// What editors see of push notices: how many readers are subscribed, and what became of each
// article's notices. Read for a whole page of articles at once (one query, not one per row).
import type { PushDeliveryCounts } from '#storage/port/push.ts'
import type { Storage } from '#storage/port/storage.ts'

export interface PushResults {
	/** Subscriptions that can still be sent to now. */
	subscribers: number
	/** Each asked article's notices by state; zeros for one never announced. */
	byArticle: Record<number, PushDeliveryCounts>
}

export async function readPushResults(
	storage: Storage,
	articleIds: number[],
): Promise<PushResults> {
	const [subscribers, results] = await Promise.all([
		storage.push.subscriberCount(),
		storage.push.resultsByArticle(articleIds),
	])
	return { subscribers, byArticle: Object.fromEntries(results) }
}
