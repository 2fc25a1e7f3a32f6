import { describe, expect, it } from 'vitest'
import { slugify, slugPattern } from './slug.ts'

describe('slugify', () => {
	it.each([
		['Soil: the Living Ground!', 'soil-the-living-ground'],
		['Half a Degree Matters: 1.5°C vs 2°C', 'half-a-degree-matters-1-5-c-vs-2-c'],
		['Océans & Forêts', 'oceans-and-forets'],
		['  --Trim me--  ', 'trim-me'],
		['日本語', ''],
	])('%s → %s', (title, slug) => {
		expect(slugify(title)).toBe(slug)
	})

	it('keeps slugs to 80 characters without a trailing hyphen', () => {
		const slug = slugify(`${'a'.repeat(79)} b`)
		expect(slug.length).toBeLessThanOrEqual(80)
		expect(slug).toMatch(slugPattern)
	})
})
