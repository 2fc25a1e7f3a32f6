// The daily chart's day axis: one tick a day at most, each day named once.
import { describe, expect, it } from 'vitest'
import { dayAxisLabels, dayAxisSteps } from './dashboard-chart.tsx'

const day = 86_400
const at = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000

describe('the day axis', () => {
	it('ticks whole days at least, never hours', () => {
		expect(Math.min(...dayAxisSteps)).toBe(day)
		for (const step of dayAxisSteps) expect(step % day).toBe(0)
	})

	it('names each day once, in the interface’s language', () => {
		const week = [23, 24, 25, 26, 27, 28, 29].map((n) => at(`2026-11-${n}`))
		expect(dayAxisLabels(week, day, 'en-GB')).toEqual([
			'23 Nov',
			'24 Nov',
			'25 Nov',
			'26 Nov',
			'27 Nov',
			'28 Nov',
			'29 Nov',
		])
		expect(dayAxisLabels([at('2026-11-23')], day, 'es')).toEqual(['23 nov'])
	})

	it('leaves a tick between two days unnamed', () => {
		const halves = [at('2026-11-23'), at('2026-11-23') + day / 2, at('2026-11-24')]
		expect(dayAxisLabels(halves, day / 2, 'en-GB')).toEqual(['23 Nov', '', '24 Nov'])
	})

	it('names months when the ticks are a month or more apart', () => {
		const months = [at('2026-10-01'), at('2026-11-01'), at('2026-12-01')]
		expect(dayAxisLabels(months, 30 * day, 'en-GB')).toEqual(['Oct 2026', 'Nov 2026', 'Dec 2026'])
		expect(dayAxisLabels([at('2026-10-01'), at('2026-10-16')], 15 * day, 'en-GB')).toEqual([
			'1 Oct',
			'16 Oct',
		])
	})
})
