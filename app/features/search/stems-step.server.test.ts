// The search-stems worker's step when a stemmer cannot be had for an article: the article is stored
// without stems (found by its words as written) and said in the log, and the step goes on to
// the others instead of asking for the same article ahead of them at every step.
import { describe, expect, it, vi } from 'vitest'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import { searchStemSteps } from './stems.server.ts'

// English's stemmer cannot be loaded; Spanish's works.
vi.mock('@orama/stemmers/english', () => {
	throw new Error('stemmer missing')
})

describe.each(databases)('search stems step ($name)', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	it('stores an article whose stemmer cannot be loaded without stems, and stems the others', async () => {
		for (const [slug, language] of [
			['forests', ''],
			['bosques', 'es'],
		] as const) {
			const saved = await storage.articles.create(
				articleWrite({ slug, title: slug, bodyMarkdown: `Los ${slug} viejos.`, language }),
			)
			if (!saved.ok) throw new Error('create failed')
		}
		const warnings: unknown[] = []
		const { step } = searchStemSteps(storage, { warn: (...line) => warnings.push(line) })
		expect(await step()).toEqual({ claimed: 2, stored: 2 })
		expect(await storage.search.unstemmed(10)).toEqual([])
		expect(warnings).toEqual([
			[
				'search: could not make an article’s stems; it is found by its words',
				expect.objectContaining({ language: 'en' }),
			],
		])
		expect(await step()).toEqual({ claimed: 0, stored: 0 })
	})

	it('stops a step short at its size limit and leaves the rest free for the next, at once', async () => {
		// Three texts of 150,000 characters: the step takes no more once it holds 256,000.
		for (const slug of ['bosques', 'montes', 'selvas']) {
			const saved = await storage.articles.create(
				articleWrite({
					slug,
					title: slug,
					bodyMarkdown: 'Los bosques viejos. '.repeat(7_500),
					language: 'es',
				}),
			)
			if (!saved.ok) throw new Error('create failed')
		}
		const { step } = searchStemSteps(storage)
		expect(await step()).toEqual({ claimed: 3, stored: 2, more: true })
		expect(await step()).toEqual({ claimed: 1, stored: 1 })
		expect(await storage.search.unstemmed(10)).toEqual([])
	})
})
