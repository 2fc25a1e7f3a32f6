import { describe, expect, it } from 'vitest'
import type { ArticleCard } from '#storage/port/articles.ts'
import { applyArticleEvent, inScope } from './apply-event.ts'

function card(id: number, day: number, title = `Article ${id}`): ArticleCard {
	return {
		id,
		slug: `article-${id}`,
		title,
		summary: '',
		coverImageUrl: null,
		coverImageAlt: null,
		coverImageWidth: null,
		coverImageHeight: null,
		tags: [],
		authors: [],
		readingMinutes: 1,
		language: '',
		publishedAt: new Date(Date.UTC(2026, 0, day)).toISOString(),
		updatedAt: new Date(Date.UTC(2026, 0, day)).toISOString(),
	}
}

const ids = (list: ArticleCard[]) => list.map((item) => item.id)

describe('applyArticleEvent', () => {
	const list = [card(3, 3), card(2, 2), card(1, 1)]

	it('puts an added article in date order', () => {
		expect(ids(applyArticleEvent(list, { kind: 'added', article: card(4, 4) }, true))).toEqual([
			4, 3, 2, 1,
		])
		expect(ids(applyArticleEvent(list, { kind: 'added', article: card(5, 2) }, true))).toEqual([
			3, 5, 2, 1,
		])
	})

	it('applies the same event twice as once', () => {
		const event = { kind: 'added' as const, article: card(4, 4) }
		const once = applyArticleEvent(list, event, true)
		expect(applyArticleEvent(once, event, true)).toEqual(once)
		const removed = applyArticleEvent(once, { kind: 'removed', id: 4 }, true)
		expect(applyArticleEvent(removed, { kind: 'removed', id: 4 }, true)).toBe(removed)
	})

	it('replaces a modified article in place', () => {
		const next = applyArticleEvent(
			list,
			{ kind: 'modified', article: card(2, 2, 'Retitled') },
			true,
		)
		expect(ids(next)).toEqual([3, 2, 1])
		expect(next[1]?.title).toBe('Retitled')
	})

	it('leaves older pages alone when a new article arrives, but still updates what they show', () => {
		expect(applyArticleEvent(list, { kind: 'added', article: card(9, 9) }, false)).toBe(list)
		expect(
			applyArticleEvent(list, { kind: 'modified', article: card(1, 1, 'Edited') }, false)[2]?.title,
		).toBe('Edited')
	})
})

describe('inScope: a live list in one language', () => {
	const inLanguage = (language: string) => ({ ...card(9, 9), language })
	// A site in English that also offers Spanish and Arabic.
	const english = { language: { tag: 'en', includeUnset: true, others: ['es', 'ar'] } }
	const spanish = { language: { tag: 'es', includeUnset: false, others: ['es', 'ar'] } }

	it('takes an article in a language the site does not offer into the site language’s list', () => {
		expect(inScope(inLanguage('ru'), english)).toBe(true)
		expect(inScope(inLanguage('ru'), spanish)).toBe(false)
		expect(inScope(inLanguage(''), english)).toBe(true)
		expect(inScope(inLanguage('ar'), english)).toBe(false)
	})

	it('takes a regional tag into its language’s list', () => {
		expect(inScope(inLanguage('es-MX'), spanish)).toBe(true)
		expect(inScope(inLanguage('es-MX'), english)).toBe(false)
		expect(inScope(inLanguage('en-GB'), english)).toBe(true)
	})
})
