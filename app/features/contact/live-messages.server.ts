// The messages topic of the live stream, for the inbox's open pages: only `{kind, id}` of each
// change (the page reads the messages themselves, through its loaders, as the signed-in editor).
import { eventFrame, type LiveTopic } from '#app/lib/live-events.ts'

export const messagesTopic: LiveTopic = {
	name: 'messages',
	frames: (_storage, changes) =>
		changes.map((change) => ({
			id: change.id,
			text: eventFrame(change.id, 'message', { kind: change.kind, id: Number(change.entityId) }),
		})),
}
