// The articles topic of the live stream: each public change as the card a list shows. A draft is
// never on it.
import { eventFrame, type LiveTopic } from '#app/lib/live-events.ts'
import type { ArticleCard } from '#storage/port/articles.ts'
import type { ArticleEvent } from './article-types.ts'

export const articlesTopic: LiveTopic = {
	name: 'articles',
	async frames(storage, changes) {
		const wanted = changes
			.filter((change) => change.kind !== 'removed')
			.map((change) => Number(change.entityId))
		const cards = new Map<number, ArticleCard>()
		for (const card of await storage.articles.listPublishedByIds([...new Set(wanted)]))
			cards.set(card.id, card)
		return changes.map((change) => {
			const id = Number(change.entityId)
			const card = change.kind === 'removed' ? undefined : cards.get(id)
			// An article no longer public by the time we read it goes out as removed: the stream
			// never carries a draft, and the later removal event is then a harmless repeat.
			const event: ArticleEvent = card
				? { kind: change.kind as 'added' | 'modified', article: card }
				: { kind: 'removed', id }
			return { id: change.id, text: eventFrame(change.id, 'article', event) }
		})
	},
}
