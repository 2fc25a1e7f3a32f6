import { describe, expect, it } from 'vitest'
import { slugFor, slugify, slugPattern } from './slug.ts'

describe('slugify', () => {
	it.each([
		['Soil: the Living Ground!', 'soil-the-living-ground'],
		['Half a Degree Matters: 1.5°C vs 2°C', 'half-a-degree-matters-1-5-c-vs-2-c'],
		['Océans & Forêts', 'oceans-and-forets'],
		['  --Trim me--  ', 'trim-me'],
		['Привет, мир: леса и реки', 'privet-mir-lesa-i-reki'],
		['Щука и ёж', 'schuka-i-yozh'],
		['Ελληνικά νερά', 'ellinika-nera'],
		['日本語の森', '日本語の森'],
		['森林保护 2024', '森林保护-2024'],
		['حماية الغابات', 'حماية-الغابات'],
		['वन संरक्षण', 'वन-संरक्षण'],
		['🌍🌱', ''],
	])('%s → %s', (title, slug) => {
		expect(slugify(title)).toBe(slug)
	})

	it('gives every title in any script a valid address, different titles different ones', () => {
		const titles = [
			'Как спасти торфяники',
			'Πώς να σώσουμε τους υγρότοπους',
			'如何保护泥炭地',
			'كيف نحمي أراضي الخث',
			'पीटलैंड को कैसे बचाएं',
			'🌍🌱🐝',
			'🌊🐋',
			'Peatlands',
		]
		const slugs = titles.map((title) => slugFor('article', title))
		for (const slug of slugs) {
			expect(slug, slug).toMatch(slugPattern)
			expect(Array.from(slug).length).toBeLessThanOrEqual(80)
		}
		expect(new Set(slugs).size).toBe(titles.length)
		expect(slugFor('article', '🌍🌱🐝')).toMatch(/^article-[0-9a-f]{8}$/)
		expect(slugFor('article', '🌍🌱🐝')).toBe(slugFor('article', '🌍🌱🐝'))
	})

	it('refuses capitals, spaces and signs in a typed address, in any script', () => {
		for (const slug of ['Hello', 'a b', 'a--b', '-a', 'é', 'Привет', '🌍', 'a/b', '%E6%A3%AE'])
			expect(slugPattern.test(slug), slug).toBe(false)
	})

	it('keeps slugs to 80 characters without a trailing hyphen', () => {
		const slug = slugify(`${'a'.repeat(79)} b`)
		expect(slug.length).toBeLessThanOrEqual(80)
		expect(slug).toMatch(slugPattern)
	})
})
