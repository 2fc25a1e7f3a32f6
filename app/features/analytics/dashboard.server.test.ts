// Which days the dashboard shows, from its address, on a fixed "today".
import { describe, expect, it } from 'vitest'
import { dayIn } from '#app/lib/format.ts'
import { addDays, parseDashboardRange } from './dashboard.server.ts'

const today = '2026-11-21'
const parse = (query: string) => parseDashboardRange(new URLSearchParams(query), today)

function rangeOf(query: string) {
	const parsed = parse(query)
	if (!parsed.ok) throw new Error(`Refused ${query}: ${JSON.stringify(parsed.errors)}`)
	return parsed.range
}

function errorsOf(query: string) {
	const parsed = parse(query)
	if (parsed.ok) throw new Error(`Accepted ${query}`)
	return parsed.errors
}

describe('the dashboard range', () => {
	it('shows the last 30 days up to and including today when nothing is asked', () => {
		expect(rangeOf('')).toEqual({
			choice: '30',
			current: { from: '2026-10-23', to: '2026-11-21' },
			previous: { from: '2026-09-23', to: '2026-10-22' },
			days: 30,
			query: 'range=30',
		})
	})

	it('takes 7 and 90 days, the previous period being the same number of days just before', () => {
		expect(rangeOf('range=7')).toMatchObject({
			current: { from: '2026-11-15', to: '2026-11-21' },
			previous: { from: '2026-11-08', to: '2026-11-14' },
			days: 7,
		})
		expect(rangeOf('range=90')).toMatchObject({
			current: { from: '2026-08-24', to: '2026-11-21' },
			previous: { from: '2026-05-26', to: '2026-08-23' },
			days: 90,
		})
	})

	it('lets a preset win over dates sent beside it, as the form sends both', () => {
		expect(rangeOf('range=7&from=2026-01-01&to=2026-01-31').current).toEqual({
			from: '2026-11-15',
			to: '2026-11-21',
		})
	})

	it('takes custom dates, with or without range=custom, across months and a leap day', () => {
		expect(rangeOf('range=custom&from=2024-02-20&to=2024-03-05')).toEqual({
			choice: 'custom',
			current: { from: '2024-02-20', to: '2024-03-05' },
			previous: { from: '2024-02-05', to: '2024-02-19' },
			days: 15,
			query: 'range=custom&from=2024-02-20&to=2024-03-05',
		})
		expect(rangeOf('from=2026-11-21&to=2026-11-21')).toMatchObject({
			days: 1,
			previous: { from: '2026-11-20', to: '2026-11-20' },
		})
		expect(rangeOf('from=2025-12-31&to=2026-01-01').previous).toEqual({
			from: '2025-12-29',
			to: '2025-12-30',
		})
	})

	it('allows up to 366 days, today included', () => {
		expect(rangeOf('from=2025-11-21&to=2026-11-21').days).toBe(366)
		expect(errorsOf('from=2025-11-20&to=2026-11-21')).toEqual({
			from: ['Choose at most 366 days: the first day is too far back.'],
		})
	})

	it('refuses a last day after today', () => {
		expect(errorsOf('from=2026-11-01&to=2026-11-22')).toEqual({
			to: ['The last day cannot be after today (2026-11-21).'],
		})
	})

	it('refuses a first day after the last', () => {
		expect(errorsOf('from=2026-11-10&to=2026-11-09')).toEqual({
			from: ['The first day must be on or before the last day.'],
		})
	})

	it('refuses days that do not exist or are not written year-month-day, field by field', () => {
		for (const bad of ['2026-02-29', '2026-13-01', '2026-11-31', '21/11/2026', '2026-1-5', 'x']) {
			expect(errorsOf(`from=${bad}&to=2026-11-20`), bad).toEqual({
				from: ['Enter the first day as a real date, year-month-day (for example 2026-11-21).'],
			})
		}
		expect(errorsOf('range=custom')).toEqual({
			from: ['Enter the first day.'],
			to: ['Enter the last day.'],
		})
		expect(errorsOf('from=2026-11-01')).toEqual({ to: ['Enter the last day.'] })
	})

	it('keeps the previous period to real days, however far back the period starts', () => {
		expect(rangeOf('from=1000-01-01&to=1000-12-31').previous).toEqual({
			from: '0999-01-01',
			to: '0999-12-31',
		})
		// Years before 100 are no dates the dashboard can have views for.
		expect(errorsOf('from=0001-01-01&to=0002-01-01')).toEqual({
			from: ['Enter the first day as a real date, year-month-day (for example 2026-11-21).'],
			to: ['Enter the last day as a real date, year-month-day (for example 2026-11-21).'],
		})
	})

	it('refuses a range that is neither a preset nor custom', () => {
		for (const bad of ['14', '07', '30.0', 'all', '-7']) {
			expect(errorsOf(`range=${bad}`), bad).toEqual({
				range: ['Choose the last 7, 30 or 90 days, or dates of your own.'],
			})
		}
	})

	it('gives back what was asked, for the form to show again', () => {
		const parsed = parse('range=custom&from=2026-02-30&to=2026-03-01')
		expect(parsed).toMatchObject({
			ok: false,
			input: { choice: 'custom', from: '2026-02-30', to: '2026-03-01' },
		})
	})
})

describe('days', () => {
	it('are the days of the site’s time zone', () => {
		expect(dayIn(new Date('2026-11-21T23:59:59.999Z'), 'UTC')).toBe('2026-11-21')
		expect(dayIn(new Date('2026-11-22T00:30:00+01:00'), 'UTC')).toBe('2026-11-21')
		// Evening in California is the next day in UTC, and still the same day there.
		expect(dayIn(new Date('2026-11-22T03:00:00Z'), 'America/Los_Angeles')).toBe('2026-11-21')
		expect(dayIn(new Date('2026-11-21T23:30:00Z'), 'Pacific/Auckland')).toBe('2026-11-22')
		expect(dayIn(new Date('2026-01-01T00:00:00Z'), 'Asia/Kolkata')).toBe('2026-01-01')
		expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
		expect(addDays('2024-03-01', -1)).toBe('2024-02-29')
	})
})
