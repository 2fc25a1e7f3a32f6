// The search-stems worker after the site's language changes: the articles that name no language
// are stemmed again in the new one, once, and those that name theirs are left as they are.
import { describe, expect, it } from 'vitest'
import { saveSiteSettings } from '#app/features/site/site-settings.server.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { articleWrite } from '#tests/fixtures/factories.ts'
import { databases, freshStorageEachTest } from '#tests/fixtures/storage.ts'
import { searchStemSteps } from './stems.server.ts'

describe.each(databases)('search stems after a language change ($name)', ({ create }) => {
	let storage: Storage
	freshStorageEachTest(create, (fresh) => ({ storage } = fresh))

	it('stems the articles naming no language again in the site’s new one', async () => {
		const ids: number[] = []
		for (const [slug, language] of [
			['unnamed', ''],
			['spanish', 'es'],
		] as const) {
			const saved = await storage.articles.create(
				articleWrite({ slug, title: slug, bodyMarkdown: 'Restauraciones de los ríos.', language }),
			)
			if (!saved.ok) throw new Error('create failed')
			ids.push(saved.saved.article.id)
		}
		const { step } = searchStemSteps(storage)
		expect(await step()).toEqual({ claimed: 2, stored: 2 })
		expect(await step()).toEqual({ claimed: 0, stored: 0 })
		await saveSiteSettings(storage, { language: 'fr' })
		// The unnamed one only, then nothing more.
		expect((await storage.search.unstemmed(10, 'fr')).map((due) => due.id)).toEqual([ids[0]])
		expect(await step()).toEqual({ claimed: 1, stored: 1 })
		expect(await storage.search.unstemmed(10, 'fr')).toEqual([])
		expect(await step()).toEqual({ claimed: 0, stored: 0 })
	})
})
