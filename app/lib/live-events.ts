// The live events open pages hear (Server-Sent Events): one format for every topic, made here,
// sent by the server's one broker (server/live/broker.ts) on the streams of server/live/streams.ts.
import type { Change } from '#storage/port/changes.ts'
import type { Storage } from '#storage/port/storage.ts'

/** One event as EventSource reads it: its change id (the resume position), its name, its data. */
export function eventFrame(id: number, event: string, data: unknown): string {
	return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`
}

/** Too far behind to replay (or from another database): the page reads everything again. */
export function resetFrame(id: number): string {
	return `id: ${id}\nevent: reset\ndata: {}\n\n`
}

export interface LiveFrame {
	/** The change's id. */
	id: number
	text: string
}

/**
 * A topic of the change feed as open pages hear it (articles, config, messages). The broker reads
 * each change once per process and asks the topic for its frames, once, whoever listens.
 */
export interface LiveTopic {
	/** The change feed's topic (Change.topic). */
	name: string
	/** Frames for this topic's changes, in their order. */
	frames(storage: Storage, changes: Change[]): LiveFrame[] | Promise<LiveFrame[]>
}

/** Where a client resumes: Last-Event-ID on a reconnect, else ?since= from the page. */
export function parseStreamPosition(
	value: string | null | undefined,
): number | 'invalid' | undefined {
	if (value === undefined || value === null || value === '') return undefined
	return /^\d{1,15}$/.test(value) ? Number(value) : 'invalid'
}

export const invalidPositionAnswer = {
	error: 'The stream position is not valid.',
	fields: { since: ['Use the whole-number change id from the page or the last event.'] },
}
