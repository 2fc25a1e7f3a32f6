// WCAG 2.1 A/AA and axe's best practices on every kind of public page, in both colour schemes
// (the stylesheet changes every colour but the header's in dark mode).
import AxeBuilder from '@axe-core/playwright'
import { axeTags, describeViolations } from './axe-check.ts'
import {
	expect,
	seededSlugsNewestFirst,
	serveCanopy,
	test,
	waitForHydration,
} from './canopy-test.ts'
import { publishArticle } from './server.ts'

const server = serveCanopy()

const notFoundPath = '/articles/no-such-article'
const pages = [
	'/home',
	'/articles',
	...seededSlugsNewestFirst.map((slug) => `/articles/${slug}`),
	'/contact',
	'/newsletter',
	'/tags/climate',
	'/authors/elena-kowalski',
	notFoundPath,
	'/admin/sign-in',
]

const schemes = ['light', 'dark'] as const

test.describe('every kind of public page', () => {
	// The 404 page's document is logged by the browser as a failed load; that one is expected.
	test.use({
		expectedConsoleError:
			/status of 404 \(Not Found\) \(at http:[^ ]+\/articles\/no-such-article\)$/,
	})

	for (const path of pages) {
		// Loaded once, audited in each scheme: the stylesheet's media queries apply at once, and
		// without transitions no colour is caught between the two.
		test(`${path} has no axe violations, light or dark`, async ({ page }) => {
			await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' })
			const response = await page.goto(path)
			expect(response?.status()).toBe(path === notFoundPath ? 404 : 200)
			await waitForHydration(page)
			for (const colorScheme of schemes) {
				await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
				const matches = await page.evaluate(
					(scheme) => matchMedia(`(prefers-color-scheme: ${scheme})`).matches,
					colorScheme,
				)
				expect(matches, `the page sees prefers-color-scheme: ${colorScheme}`).toBe(true)
				const { violations } = await new AxeBuilder({ page }).withTags(axeTags).analyze()
				expect(
					violations,
					`axe violations on ${path} (${colorScheme}):\n${describeViolations(violations)}`,
				).toEqual([])
			}
		})
	}
})

for (const colorScheme of schemes) {
	test.describe(`${colorScheme} colour scheme`, () => {
		test.use({ colorScheme })

		test('/articles with a just-published card (highlighted, "New" badge) has no axe violations', async ({
			page,
		}) => {
			// No transition, so the highlight's final colours are the ones measured.
			await page.emulateMedia({ reducedMotion: 'reduce' })
			const stream = page.waitForResponse((response) =>
				response.url().includes('/api/articles/stream'),
			)
			await page.goto('/articles')
			await waitForHydration(page)
			await stream
			const title = `Rewilding Rivers, Seen in ${colorScheme} Mode`
			const slug = `rewilding-rivers-${colorScheme}`
			const published = await publishArticle(server(), { title, slug })
			expect(published.code, published.stderr).toBe(0)
			const card = page.locator('article.article-card.fresh', { hasText: title })
			await expect(card.locator('.badge')).toHaveText('New')
			const { violations } = await new AxeBuilder({ page }).withTags(axeTags).analyze()
			expect(
				violations,
				`axe violations (${colorScheme}):\n${describeViolations(violations)}`,
			).toEqual([])
		})
	})
}
