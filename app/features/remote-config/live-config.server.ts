// The config topic of the live stream: a new configuration version was published
// (docs/decisions/013-remote-config.md); open pages read their values again.
import { eventFrame, type LiveTopic } from '#app/lib/live-events.ts'

export const configTopic: LiveTopic = {
	name: 'config',
	frames: (_storage, changes) =>
		changes.map((change) => ({
			id: change.id,
			text: eventFrame(change.id, 'config', { version: Number(change.entityId) }),
		})),
}
