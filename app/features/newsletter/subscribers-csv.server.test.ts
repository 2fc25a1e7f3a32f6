import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import {
	maxImportBytes,
	maxImportRows,
	parseSubscribersCsv,
	subscribersCsv,
} from './subscribers-csv.server.ts'

// Taken from the function rather than imported, so that this file stays a pure unit test.
type Subscriber = Parameters<typeof subscribersCsv>[0][number]

function subscriber(overrides: Partial<Subscriber>): Subscriber {
	return {
		id: 1,
		email: 'ada@example.org',
		status: 'confirmed',
		cadence: 'each',
		source: 'form',
		consentAt: '2026-11-20T10:00:00.000Z',
		createdAt: '2026-11-19T09:00:00.000Z',
		changedAt: '2026-11-20T10:00:00.000Z',
		failures: 0,
		tagIds: [],
		...overrides,
	}
}

describe('parseSubscribersCsv', () => {
	it('reads the email column of a file with a header, ignoring the others', () => {
		const file =
			'\uFEFFName,E-Mail,Note\r\nAda,ada@example.org,"likes, commas"\r\nGrace, Grace@Example.ORG ,\r\n'
		expect(parseSubscribersCsv(file)).toEqual({
			ok: true,
			emails: ['ada@example.org', 'grace@example.org'],
		})
	})

	it('reads one address per line without a header, blank lines skipped, each address once', () => {
		const file = 'ada@example.org\n\n  ADA@example.org  \ngrace@example.org,\n\nada@example.org\n'
		expect(parseSubscribersCsv(file)).toEqual({
			ok: true,
			emails: ['ada@example.org', 'grace@example.org'],
		})
	})

	it('refuses the whole file when a line is bad, naming the lines (ten, then how many more)', () => {
		const lines = ['email', 'ada@example.org', '', 'not-an-address', ',Grace']
		const result = parseSubscribersCsv(lines.join('\n'))
		expect(result).toEqual({
			ok: false,
			problems: [
				'Line 4: “not-an-address” is not an email address.',
				'Line 5: the email column is empty.',
				'Nothing was imported: correct these lines and import the file again.',
			],
		})
		const many = ['email', ...Array.from({ length: 13 }, (_, index) => `bad${index}`)].join('\n')
		const refused = parseSubscribersCsv(many)
		expect(refused.ok).toBe(false)
		if (refused.ok) return
		expect(refused.problems).toHaveLength(12)
		expect(refused.problems[0]).toBe('Line 2: “bad0” is not an email address.')
		expect(refused.problems[9]).toBe('Line 11: “bad9” is not an email address.')
		expect(refused.problems[10]).toBe('…and 3 more lines.')
	})

	it('asks for a header when a file without one has several columns', () => {
		const result = parseSubscribersCsv('Ada,ada@example.org\n')
		expect(result.ok).toBe(false)
		if (result.ok) return
		expect(result.problems[0]).toMatch(/^Line 1: it has several columns\. Name them/)
	})

	it('refuses what is not a list of addresses: empty, broken quotes, not text', () => {
		expect(parseSubscribersCsv('')).toEqual({
			ok: false,
			problems: ['The file has no addresses in it.'],
		})
		expect(parseSubscribersCsv('email\n')).toEqual({
			ok: false,
			problems: ['The file has no addresses in it.'],
		})
		const broken = parseSubscribersCsv('email\n"ada@example.org\n')
		expect(broken.ok).toBe(false)
		if (!broken.ok) expect(broken.problems[0]).toMatch(/^The file is not readable as CSV/)
		const png = parseSubscribersCsv('\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR')
		expect(png).toEqual({
			ok: false,
			problems: [
				'This file is not text. Save the list as CSV (comma-separated values) and choose that file.',
			],
		})
	})

	it(`takes ${maxImportRows.toLocaleString('en')} addresses and refuses one more, or more than 5 MB`, () => {
		const rows = (count: number) =>
			['email', ...Array.from({ length: count }, (_, index) => `r${index}@example.org`)].join('\n')
		const most = parseSubscribersCsv(rows(maxImportRows))
		expect(most.ok && most.emails.length).toBe(maxImportRows)
		expect(parseSubscribersCsv(rows(maxImportRows + 1))).toEqual({
			ok: false,
			problems: ['The file has more than 100,000 addresses; split it and import each part.'],
		})
		const large = `email\nada@example.org,${'x'.repeat(maxImportBytes)}\n`
		expect(parseSubscribersCsv(large)).toEqual({
			ok: false,
			problems: ['The file is larger than 5 MB; split it and import each part.'],
		})
	})
})

describe('subscribersCsv', () => {
	const tags = new Map([
		[1, 'Birds'],
		[2, 'Rivers, lakes'],
		[3, '=HYPERLINK("http://x","y")'],
	])

	it('writes one row per subscriber with the names of the tags followed', () => {
		const csv = subscribersCsv(
			[
				subscriber({ tagIds: [1, 2, 99] }),
				subscriber({
					id: 2,
					email: 'grace@example.org',
					status: 'pending',
					cadence: 'digest',
					source: 'import',
					consentAt: null,
				}),
			],
			tags,
		)
		expect(csv.startsWith('\uFEFFemail,status,cadence,source,consent_at,created_at,tags\r\n')).toBe(
			true,
		)
		expect(parse(csv, { bom: true })).toEqual([
			['email', 'status', 'cadence', 'source', 'consent_at', 'created_at', 'tags'],
			[
				'ada@example.org',
				'confirmed',
				'each',
				'form',
				'2026-11-20T10:00:00.000Z',
				'2026-11-19T09:00:00.000Z',
				'Birds; Rivers, lakes',
			],
			['grace@example.org', 'pending', 'digest', 'import', '', '2026-11-19T09:00:00.000Z', ''],
		])
	})

	it('puts an apostrophe before a cell a spreadsheet would run, and reads its own file back', () => {
		const csv = subscribersCsv(
			[
				subscriber({ email: '-ada@example.org', tagIds: [3] }),
				subscriber({ id: 2, email: '+grace@example.org' }),
			],
			tags,
		)
		const [, first, second] = parse(csv, { bom: true }) as string[][]
		expect(first?.[0]).toBe("'-ada@example.org")
		expect(first?.[6]).toBe(`'=HYPERLINK("http://x","y")`)
		expect(second?.[0]).toBe("'+grace@example.org")
		expect(parseSubscribersCsv(csv)).toEqual({
			ok: true,
			emails: ['-ada@example.org', '+grace@example.org'],
		})
	})
})
