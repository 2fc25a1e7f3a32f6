// The words the dashboard puts on its figures and rows.
import { describe, expect, it } from 'vitest'
import { changeText, findTable, rowLabels } from './dashboard-tables.ts'

describe('the change against the previous period', () => {
	it('says up or down, by how much and from what, in words', () => {
		expect(changeText(42, 35, 30)).toBe('Up 20% from 35 in the previous 30 days')
		expect(changeText(30, 40, 7)).toBe('Down 25% from 40 in the previous 7 days')
		expect(changeText(2001, 2000, 90)).toBe('Up less than 1% from 2,000 in the previous 90 days')
		expect(changeText(5, 5, 1)).toBe('Same as the previous day (5)')
		expect(changeText(3, 0, 30)).toBe('Up from 0 in the previous 30 days')
		expect(changeText(0, 0, 30)).toBe('Same as the previous 30 days (0)')
		expect(changeText(0, 8, 30)).toBe('Down 100% from 8 in the previous 30 days')
	})
})

describe('row labels', () => {
	const table = (name: string) => {
		const found = findTable(name)
		if (!found) throw new Error(name)
		return found
	}
	const row = (values: string[]) => ({ values, visitors: 1, views: 1 })

	it('names what a row is in the words of its table', () => {
		expect(rowLabels(table('pages'), row(['/home']))).toEqual(['/home'])
		expect(rowLabels(table('articles'), row(['/articles/tides', 'Tides']))).toEqual([
			'Tides',
			'/articles/tides',
		])
		expect(rowLabels(table('articles'), row(['/articles/tides', '']))).toEqual([
			'/articles/tides',
			'/articles/tides',
		])
		expect(rowLabels(table('referrers'), row(['']))).toEqual(['Direct or unknown'])
		expect(rowLabels(table('referrers'), row(['news.example']))).toEqual(['news.example'])
		expect(rowLabels(table('campaigns'), row(['spring', 'newsletter', '']))).toEqual([
			'spring',
			'newsletter',
			'(not set)',
		])
		expect(rowLabels(table('devices'), row(['mobile']))).toEqual(['Mobile'])
		expect(rowLabels(table('languages'), row(['fr']))).toEqual(['French (fr)'])
		expect(rowLabels(table('languages'), row(['']))).toEqual(['Unknown'])
		expect(rowLabels(table('languages'), row(['not a tag!']))).toEqual(['not a tag!'])
	})
})
