// Lighthouse's accessibility, best-practices and SEO categories must score 100 on each public
// page, in its default (mobile) form factor. About 6 s a page, on the whole browser.
import { type Browser, chromium } from '@playwright/test'
import lighthouse, { type Result } from 'lighthouse'
import { expect, seededSlugsNewestFirst, test } from './canopy-test.ts'
import { chromeFlags, chromePath } from './chrome.ts'
import { type CanopyServer, freePort, publishArticles, startServer } from './server.ts'

const categories = ['accessibility', 'best-practices', 'seo'] as const
const arabicSlug = 'الأراضي-الخثية-تخزن-الكربون'
const paths = [
	'/home',
	'/articles',
	`/articles/${seededSlugsNewestFirst[0]}`,
	'/contact',
	'/tags/climate',
	'/authors/elena-kowalski',
	// An Arabic translation, right to left, on a site that offers Arabic (decision 033).
	`/articles/${encodeURI(arabicSlug)}`,
]

// Lighthouse drives its own tab over the DevTools protocol; the Playwright page is not used.
let server: CanopyServer
let browser: Browser
let debuggingPort: number

test.beforeAll(async () => {
	server = await startServer()
	await server.withStorage((storage) => storage.settings.set({ 'site.languages': 'en,ar' }))
	await publishArticles(server, [
		{
			title: 'الأراضي الخثية تخزن الكربون',
			slug: '',
			summary: 'تغطي ٣٪ من اليابسة وتخزن كربونًا أكثر من كل الغابات.',
			body: 'تغطي الأراضي الخثية نحو ثلاثة في المئة فقط من يابسة الكوكب، لكنها تخزن من الكربون أكثر مما تخزنه غابات العالم كلها.',
			tags: ['الخث'],
			language: 'ar',
			translationOf: seededSlugsNewestFirst[0],
		},
	])
	debuggingPort = await freePort()
	browser = await chromium.launch({
		executablePath: chromePath,
		args: [...chromeFlags, `--remote-debugging-port=${debuggingPort}`],
	})
})

test.afterAll(async () => {
	await browser?.close()
	await server?.dispose()
})

function failingAudits(result: Result, category: string): string {
	const refs = result.categories[category]?.auditRefs ?? []
	return refs
		.filter((ref) => ref.weight > 0)
		.map((ref) => result.audits[ref.id])
		.filter((audit) => audit !== undefined && audit.score !== null && audit.score < 1)
		.map((audit) => {
			const details = audit?.details as { items?: Record<string, unknown>[] } | undefined
			const items = (details?.items ?? [])
				.slice(0, 5)
				.map((item) => `      ${JSON.stringify(item).slice(0, 300)}`)
				.join('\n')
			const why = audit?.explanation ? `\n      ${audit.explanation}` : ''
			return `    ${audit?.id}: ${audit?.title} (score ${audit?.score})${why}${items ? `\n${items}` : ''}`
		})
		.join('\n')
}

for (const path of paths) {
	test(`${path} scores 100 for accessibility, best practices and SEO`, async () => {
		const runner = await lighthouse(`${server.url}${path}`, {
			port: debuggingPort,
			output: 'json',
			logLevel: 'error',
			onlyCategories: [...categories],
		})
		const result = runner?.lhr
		expect(result, 'Lighthouse returned a report').toBeDefined()
		if (!result) return
		expect(result.runtimeError, result.runtimeError?.message).toBeUndefined()
		// Only a perfect score shows as 100 (Lighthouse's own rounding would turn 0.996 into 100).
		const scores = Object.fromEntries(
			categories.map((id) => {
				const score = result.categories[id]?.score ?? 0
				return [id, score === 1 ? 100 : Math.min(99, Math.round(score * 100))]
			}),
		)
		console.log(`lighthouse ${path}: ${categories.map((id) => `${id} ${scores[id]}`).join(', ')}`)
		const failures = categories
			.filter((id) => scores[id] !== 100)
			.map((id) => `  ${id} ${scores[id]}:\n${failingAudits(result, id)}`)
			.join('\n')
		expect(scores, `Lighthouse categories below 100 on ${path}:\n${failures}`).toEqual({
			accessibility: 100,
			'best-practices': 100,
			seo: 100,
		})
	})
}
