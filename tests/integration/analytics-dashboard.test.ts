// The analytics dashboard over real HTTP, on each database, as a browser without JavaScript sees
// it: views recorded as the collector stores them, and every figure, row and CSV cell worked out
// by hand from those views (visitors per day, visits split by a 30-minute gap).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DeviceClass, ScreenViewWrite } from '#storage/port/analytics.ts'
import { makeUser, signIn } from '#tests/fixtures/admin-api.ts'
import { screenView } from '#tests/fixtures/analytics.ts'
import { startTestApp, type TestApp } from '#tests/fixtures/app.ts'
import { getPage } from '#tests/fixtures/forms.ts'
import { databases } from '#tests/fixtures/storage.ts'

const dayMs = 86_400_000
const today = new Date().toISOString().slice(0, 10)
/** The UTC day `n` days before today. */
const daysAgo = (n: number) => new Date(Date.parse(today) - n * dayMs).toISOString().slice(0, 10)
const at = (day: string, time: string) => new Date(`${day}T${time}:00Z`)

function view(
	when: Date,
	visitor: string,
	path: string,
	more: Partial<ScreenViewWrite> & { device?: DeviceClass } = {},
): ScreenViewWrite {
	return screenView(when, visitor, path, more)
}

// The period looked at: 7 days, 13 to 7 days ago; the one before it: 20 to 14 days ago.
const dayA = daysAgo(12)
const dayB = daysAgo(9)
const dayP = daysAgo(16)
const period = `from=${daysAgo(13)}&to=${daysAgo(7)}`
const formula = '=HYPERLINK("http://x","y")'

const a1 = { device: 'mobile', language: 'fr' } as const
const a2 = { device: 'desktop', language: 'en' } as const
const b1 = { device: 'tablet', language: '' } as const
const b2 = { device: 'mobile', language: 'de' } as const
const views: ScreenViewWrite[] = [
	// Day A. a1: one visit of three views, from a newsletter link on news.example.
	view(at(dayA, '10:00'), 'a1', '/home', {
		...a1,
		referrerHost: 'news.example',
		utmCampaign: 'spring',
		utmSource: 'newsletter',
		utmMedium: 'email',
	}),
	view(at(dayA, '10:05'), 'a1', '/articles/tides', {
		...a1,
		title: 'Tides',
		previousPath: '/home',
	}),
	view(at(dayA, '10:10'), 'a1', '/articles', { ...a1, previousPath: '/articles/tides' }),
	// a2: two visits an hour apart, both direct.
	view(at(dayA, '11:00'), 'a2', '/articles/tides', { ...a2, title: 'Tides' }),
	view(at(dayA, '12:00'), 'a2', '/home', a2),
	// Day B. b1: one visit of two views from search.example; the article has a new title.
	view(at(dayB, '09:00'), 'b1', '/articles/tides', {
		...b1,
		title: 'Tides, revised',
		referrerHost: 'search.example',
	}),
	view(at(dayB, '09:10'), 'b1', '/contact', { ...b1, previousPath: '/articles/tides' }),
	// b2: what a spreadsheet would run, in every part a visitor's browser sends.
	view(at(dayB, '15:00'), 'b2', '/home', {
		...b2,
		referrerHost: '@SUM(1)',
		utmCampaign: formula,
		utmSource: '+1',
		utmMedium: '-1',
	}),
	// The previous period: three visitors, one view each.
	view(at(dayP, '08:00'), 'p1', '/home'),
	view(at(dayP, '08:30'), 'p2', '/home'),
	view(at(dayP, '09:00'), 'p3', '/articles'),
	// In neither period: 30 days ago, the day before the default 30 days.
	view(at(daysAgo(30), '12:00'), 'old', '/home'),
]

/** The text a reader sees: tags dropped, entities decoded, React's markers gone. */
function text(html: string): string {
	return html
		.replace(/<!-- -->/g, '')
		.replace(/<[^>]+>/g, '')
		.replace(/&quot;/g, '"')
		.replace(/&#x27;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&')
		.trim()
}

/** A dashboard table's rows as cell texts, found by its heading's id. */
function tableRows(html: string, name: string): string[][] | 'empty' {
	const start = html.indexOf(`aria-labelledby="${name}-title"`)
	expect(start, `the ${name} table`).toBeGreaterThan(-1)
	const section = html.slice(start, html.indexOf('</section>', start))
	if (section.includes('No views in this period')) return 'empty'
	const body = section.slice(section.indexOf('<tbody>'), section.indexOf('</tbody>'))
	return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
		[...(row[1] ?? '').matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) =>
			text(cell[1] ?? ''),
		),
	)
}

function figure(html: string, key: string): { value: string; change: string } {
	const match = new RegExp(
		`data-figure="${key}"[\\s\\S]*?figure-value">([^<]*)<[\\s\\S]*?figure-change">([^<]*)<`,
	).exec(html.replace(/<!-- -->/g, ''))
	return { value: match?.[1] ?? '', change: text(match?.[2] ?? '') }
}

/** A CSV file's records (RFC 4180: quoted cells, doubled quotes, CRLF between records). */
function parseCsv(csv: string): string[][] {
	const records: string[][] = []
	let record: string[] = []
	let cell = ''
	let quoted = false
	for (let i = 0; i < csv.length; i++) {
		const c = csv[i]
		if (quoted) {
			if (c === '"' && csv[i + 1] === '"') {
				cell += '"'
				i++
			} else if (c === '"') quoted = false
			else cell += c
		} else if (c === '"') quoted = true
		else if (c === ',') {
			record.push(cell)
			cell = ''
		} else if (c === '\r' && csv[i + 1] === '\n') {
			record.push(cell)
			records.push(record)
			record = []
			cell = ''
			i++
		} else cell += c
	}
	if (cell !== '' || record.length > 0) records.push([...record, cell])
	return records
}

const expectedTables: Record<string, { header: string[]; rows: string[][] }> = {
	pages: {
		header: ['Page', 'Visitors', 'Views'],
		rows: [
			['/articles/tides', '3', '3'],
			['/home', '3', '3'],
			['/articles', '1', '1'],
			['/contact', '1', '1'],
		],
	},
	articles: {
		header: ['Article', 'Address', 'Visitors', 'Views'],
		rows: [['Tides, revised', '/articles/tides', '3', '3']],
	},
	entries: {
		header: ['Entry page', 'Visitors', 'Visits'],
		rows: [
			['/home', '3', '3'],
			['/articles/tides', '2', '2'],
		],
	},
	exits: {
		header: ['Exit page', 'Visitors', 'Visits'],
		rows: [
			['/home', '2', '2'],
			['/articles', '1', '1'],
			['/articles/tides', '1', '1'],
			['/contact', '1', '1'],
		],
	},
	referrers: {
		header: ['Site', 'Visitors', 'Visits'],
		rows: [
			['Direct or unknown', '1', '2'],
			['@SUM(1)', '1', '1'],
			['news.example', '1', '1'],
			['search.example', '1', '1'],
		],
	},
	campaigns: {
		header: ['Campaign', 'Source', 'Medium', 'Visitors', 'Visits'],
		rows: [
			[formula, '+1', '-1', '1', '1'],
			['spring', 'newsletter', 'email', '1', '1'],
		],
	},
	devices: {
		header: ['Device class', 'Visitors', 'Views'],
		rows: [
			['Mobile', '2', '4'],
			['Desktop', '1', '2'],
			['Tablet', '1', '2'],
		],
	},
	languages: {
		header: ['Language', 'Visitors', 'Views'],
		rows: [
			['French (fr)', '1', '3'],
			['Unknown', '1', '2'],
			['English (en)', '1', '2'],
			['German (de)', '1', '1'],
		],
	},
}

describe.each(databases)('the analytics dashboard on $name', ({ create }) => {
	let app: TestApp
	let cookie = ''
	/** Views of the last minutes, stored by the test of visitors right now. */
	let recent: ScreenViewWrite[] = []

	beforeAll(async () => {
		app = await startTestApp({ seed: false, database: create })
		await makeUser(app, 'rosa@example.org', 'editor', 'Rosa Lima')
		cookie = await signIn(app, 'rosa@example.org')
		await app.storage.analytics.record(views)
	})
	afterAll(async () => {
		await app?.close()
	})

	const page = async (query: string) => {
		const response = await getPage(app, `/admin/analytics${query ? `?${query}` : ''}`, cookie)
		return { status: response.status, html: await response.text(), response }
	}

	async function expectPeriod() {
		const { status, html, response } = await page(period)
		expect(status).toBe(200)
		expect(response.headers.get('cache-control')).toBe('no-store')
		expect(figure(html, 'visitors')).toEqual({
			value: '4',
			change: 'Up 33% from 3 in the previous 7 days',
		})
		expect(figure(html, 'views')).toEqual({
			value: '8',
			change: 'Up 167% from 3 in the previous 7 days',
		})
		expect(figure(html, 'visits')).toEqual({
			value: '5',
			change: 'Up 67% from 3 in the previous 7 days',
		})
		for (const [name, expected] of Object.entries(expectedTables)) {
			expect(tableRows(html, name), name).toEqual(expected.rows)
		}
		return html
	}

	it('shows exactly the visitors, views, visits and top rows of the stored views', async () => {
		const html = await expectPeriod()
		expect(text(html)).toContain('Days run from midnight to midnight in the site’s time zone, UTC')
		// The day-by-day numbers under the chart, beside the previous period's days.
		const daily = html.slice(html.indexOf('id="daily-numbers-caption"'))
		const rows = tableRows(`aria-labelledby="daily-title"${daily}`, 'daily')
		expect(rows).not.toBe('empty')
		if (rows === 'empty') return
		expect(rows).toHaveLength(7)
		const dayLabel = (day: string) =>
			new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(
				new Date(`${day}T00:00:00Z`),
			)
		// Day A is the 2nd of the 7 days, day B the 5th; their previous-period twins 7 days earlier.
		expect(rows[1]).toEqual([dayLabel(dayA), '2', '5', '3', dayLabel(daysAgo(19)), '0', '0'])
		expect(rows[4]).toEqual([dayLabel(dayB), '2', '3', '2', dayLabel(dayP), '3', '3'])
		expect(rows[0]).toEqual([dayLabel(daysAgo(13)), '0', '0', '0', dayLabel(daysAgo(20)), '0', '0'])
	})

	it('shows the previous period as a period of its own, against the one before it', async () => {
		const { status, html } = await page(`range=custom&from=${daysAgo(20)}&to=${daysAgo(14)}`)
		expect(status).toBe(200)
		expect(figure(html, 'visitors')).toEqual({
			value: '3',
			change: 'Up from 0 in the previous 7 days',
		})
		expect(figure(html, 'views').value).toBe('3')
		expect(figure(html, 'visits').value).toBe('3')
		expect(tableRows(html, 'pages')).toEqual([
			['/home', '2', '2'],
			['/articles', '1', '1'],
		])
		expect(tableRows(html, 'campaigns')).toBe('empty')
		expect(tableRows(html, 'articles')).toBe('empty')
	})

	it('shows the last 30 days by default, today included, and an empty period as empty', async () => {
		const { html } = await page('')
		// Everything but the view of 30 days ago, which is the previous period's.
		expect(figure(html, 'visitors')).toEqual({
			value: '7',
			change: 'Up 600% from 1 in the previous 30 days',
		})
		expect(figure(html, 'views').value).toBe('11')
		expect(figure(html, 'visits').value).toBe('8')
		// The last 7 days have no views yet; days A and B are in the 7 before them.
		const empty = await page('range=7')
		expect(figure(empty.html, 'visitors')).toEqual({
			value: '0',
			change: 'Down 100% from 4 in the previous 7 days',
		})
		for (const name of Object.keys(expectedTables))
			expect(tableRows(empty.html, name)).toBe('empty')
	})

	it('gives each table as a CSV file: the page’s rows, with formulas neutralised', async () => {
		const { html } = await page(period)
		for (const [name, expected] of Object.entries(expectedTables)) {
			const link = `/admin/analytics/export?table=${name}&amp;range=custom&amp;${period.replace('&', '&amp;')}`
			expect(html, name).toContain(`href="${link}"`)
			const response = await getPage(app, link.replaceAll('&amp;', '&'), cookie)
			expect(response.status, name).toBe(200)
			expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
			expect(response.headers.get('cache-control')).toBe('no-store')
			expect(response.headers.get('content-disposition')).toBe(
				`attachment; filename="canopy-${name}-${daysAgo(13)}-to-${daysAgo(7)}.csv"`,
			)
			const bytes = new Uint8Array(await response.arrayBuffer())
			// A byte order mark, for spreadsheets to read the file as UTF-8.
			expect([...bytes.slice(0, 3)], name).toEqual([0xef, 0xbb, 0xbf])
			const [header, ...rows] = parseCsv(new TextDecoder().decode(bytes))
			expect(header, name).toEqual(expected.header)
			const onPage = tableRows(html, name)
			expect(onPage).not.toBe('empty')
			// The same rows as the page, a cell starting =, +, - or @ with an apostrophe before it.
			const neutralised = (onPage as string[][]).map((row) =>
				row.map((cell) => (/^[=+\-@]/.test(cell) ? `'${cell}` : cell)),
			)
			expect(rows, name).toEqual(neutralised)
		}
		const campaigns = await (
			await getPage(app, `/admin/analytics/export?table=campaigns&${period}`, cookie)
		).text()
		expect(campaigns).toContain(`"'=HYPERLINK(""http://x"",""y"")",'+1,'-1,1,1\r\n`)
		const referrers = await (
			await getPage(app, `/admin/analytics/export?table=referrers&${period}`, cookie)
		).text()
		expect(referrers).toContain(`'@SUM(1),1,1\r\n`)
		// Nothing in the period: the header alone.
		const empty = await getPage(app, '/admin/analytics/export?table=pages&range=7', cookie)
		expect(parseCsv(await empty.text())).toEqual([['Page', 'Visitors', 'Views']])
	})

	it('answers a range it cannot show with 400 and a message for each field, never a 500', async () => {
		const cases: [string, string[]][] = [
			['from=2026-02-30&to=2026-03-01', ['Enter the first day as a real date, year-month-day']],
			[`from=${daysAgo(1)}&to=${daysAgo(2)}`, ['The first day must be on or before the last day.']],
			[`from=${daysAgo(400)}&to=${daysAgo(2)}`, ['Choose at most 366 days']],
			[`from=${daysAgo(2)}&to=${daysAgo(-1)}`, [`The last day cannot be after today (${today}).`]],
			['range=custom', ['Enter the first day.', 'Enter the last day.']],
			['range=365', ['Choose the last 7, 30 or 90 days, or dates of your own.']],
		]
		for (const [query, messages] of cases) {
			const { status, html } = await page(query)
			expect(status, query).toBe(400)
			const shown = text(html)
			expect(shown).toContain('These dates cannot be shown.')
			for (const message of messages) expect(shown, query).toContain(message)
			expect(html, query).toContain('aria-invalid="true"')
			expect(html, query).not.toContain('figure-value')
			const exported = await getPage(app, `/admin/analytics/export?table=pages&${query}`, cookie)
			expect(exported.status, query).toBe(400)
			expect(exported.headers.get('content-type')).toBe('text/plain; charset=utf-8')
			const body = await exported.text()
			for (const message of messages) expect(body, query).toContain(message)
		}
		// The form keeps what was typed, so it can be corrected.
		const { html } = await page('range=custom&from=2026-02-30&to=2026-03-01')
		expect(html).toMatch(/name="from"[^>]*value="2026-02-30"|value="2026-02-30"[^>]*name="from"/)
	})

	it('refuses to export a table it does not have', async () => {
		for (const query of ['table=visitors', 'table=', '']) {
			const response = await getPage(app, `/admin/analytics/export?${query}&range=7`, cookie)
			expect(response.status, query).toBe(400)
			expect(await response.text()).toContain(
				'pages, articles, entries, exits, referrers, campaigns, devices, languages',
			)
		}
	})

	it('sends a visitor without a session to sign in, from the page, the export and the live figure', async () => {
		for (const path of [
			'/admin/analytics',
			`/admin/analytics/export?table=pages&${period}`,
			'/admin/analytics/now',
		]) {
			const response = await getPage(app, path)
			expect(response.status, path).toBe(302)
			expect(response.headers.get('location'), path).toBe(
				`/admin/sign-in?next=${encodeURIComponent(path)}`,
			)
			expect(await response.text(), path).not.toContain('news.example')
		}
	})

	it('counts the visitors of the last 5 minutes right now, on the page and live', async () => {
		const now = Date.now()
		const before = await (await getPage(app, '/admin/analytics/now', cookie)).json()
		expect(before.visitors).toBe(0)
		recent = [
			view(new Date(now - 60_000), 'n1', '/home'),
			view(new Date(now - 120_000), 'n1', '/articles'),
			view(new Date(now - 120_000), 'n2', '/home'),
			view(new Date(now - 6 * 60_000), 'n3', '/home'),
		]
		await app.storage.analytics.record(recent)
		const response = await getPage(app, '/admin/analytics/now', cookie)
		expect(response.status).toBe(200)
		expect(response.headers.get('cache-control')).toBe('no-store')
		const body = await response.json()
		expect(body.visitors).toBe(2)
		const since = Date.parse(body.since)
		expect(since).toBeGreaterThan(now - 5 * 60_000 - 1000)
		expect(since).toBeLessThanOrEqual(Date.now() - 5 * 60_000)
		const { html } = await page(period)
		const shown = /class="now-figure"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? ''
		expect(text(shown)).toBe('2 visitors in the last 5 minutes')
	})

	it('counts a view stored after the dashboard was read, on the very next read', async () => {
		// Visitors are counted per UTC day, and each one's recent views make one visit (near
		// midnight, one on each side of it).
		const visitorDays = (list: ScreenViewWrite[]) =>
			new Set(list.map((v) => `${v.at.toISOString().slice(0, 10)} ${v.visitor}`)).size
		// The last 30 days before the last minutes: 7 visitors, 11 views, 8 visits.
		const before = await page('')
		expect(figure(before.html, 'visitors').value).toBe(String(7 + visitorDays(recent)))
		expect(figure(before.html, 'views').value).toBe(String(11 + recent.length))
		expect(figure(before.html, 'visits').value).toBe(String(8 + visitorDays(recent)))
		const late = view(new Date(Date.now() - 3 * 60_000), 'n4', '/contact')
		await app.storage.analytics.record([late])
		const after = await page('')
		expect(figure(after.html, 'visitors').value).toBe(String(7 + visitorDays([...recent, late])))
		expect(figure(after.html, 'views').value).toBe(String(12 + recent.length))
		const shown = /class="now-figure"[^>]*>([\s\S]*?)<\/p>/.exec(after.html)?.[1] ?? ''
		expect(text(shown)).toBe('3 visitors in the last 5 minutes')
	})

	it('shows the same figures once the days are rolled up into daily totals', async () => {
		await app.storage.analytics.rollUp(today)
		await expectPeriod()
	})
})
