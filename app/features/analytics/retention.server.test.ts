import { describe, expect, it } from 'vitest'
import { firstKeptDay, viewRetention } from './retention.server.ts'

describe('screen view retention', () => {
	it('keeps 90 days unless set, and takes whole numbers of days from 1 to 3650', () => {
		expect(viewRetention.parse(undefined)).toEqual({ ok: true, days: 90 })
		expect(viewRetention.parse('  ')).toEqual({ ok: true, days: 90 })
		expect(viewRetention.parse(' 30 ')).toEqual({ ok: true, days: 30 })
		expect(viewRetention.parse('1')).toEqual({ ok: true, days: 1 })
		expect(viewRetention.parse('3650')).toEqual({ ok: true, days: 3650 })
		for (const bad of ['0', '-5', '1.5', '90 days', '3651', '1e3', '99999999999999999999']) {
			expect(viewRetention.parse(bad)).toEqual({
				ok: false,
				error: `Screen view retention must be a whole number of days from 1 to 3650 (got "${bad}").`,
			})
		}
	})

	it('keeps the site’s today and the given number of days before it', () => {
		expect(firstKeptDay('2026-06-10', 90)).toBe('2026-03-12')
		expect(firstKeptDay('2026-03-01', 1)).toBe('2026-02-28')
		expect(firstKeptDay('2024-03-01', 1)).toBe('2024-02-29')
	})
})
