import { describe, expect, it } from 'vitest'
import { latestSlot, zonedHour } from './digest.server.ts'

describe('the digest schedule', () => {
	it('finds the hour in the site’s time zone, across daylight saving', () => {
		expect(zonedHour(2026, 7, 6, 9, 'Europe/Berlin').toISOString()).toBe('2026-07-06T07:00:00.000Z')
		expect(zonedHour(2026, 12, 7, 9, 'Europe/Berlin').toISOString()).toBe(
			'2026-12-07T08:00:00.000Z',
		)
		expect(zonedHour(2026, 11, 30, 8, 'America/New_York').toISOString()).toBe(
			'2026-11-30T13:00:00.000Z',
		)
		expect(zonedHour(2026, 11, 30, 8, 'UTC').toISOString()).toBe('2026-11-30T08:00:00.000Z')
	})

	it('names the latest slot passed: this week’s once its hour has come, else last week’s', () => {
		const berlinMonday9 = { day: 1, hour: 9, timeZone: 'Europe/Berlin' }
		// Thursday 26 November 2026: the Monday before.
		expect(latestSlot(new Date('2026-11-26T12:00:00Z'), berlinMonday9)).toEqual({
			slot: '2026-11-23T09',
			at: new Date('2026-11-23T08:00:00Z'),
		})
		// Monday 30 November, 08:59 in Berlin: not yet.
		expect(latestSlot(new Date('2026-11-30T07:59:00Z'), berlinMonday9).slot).toBe('2026-11-23T09')
		expect(latestSlot(new Date('2026-11-30T08:00:00Z'), berlinMonday9).slot).toBe('2026-11-30T09')
		// Late Sunday in New York is already Monday in UTC.
		const nySunday20 = { day: 0, hour: 20, timeZone: 'America/New_York' }
		expect(latestSlot(new Date('2026-11-30T02:00:00Z'), nySunday20)).toEqual({
			slot: '2026-11-29T20',
			at: new Date('2026-11-30T01:00:00Z'),
		})
	})
})
