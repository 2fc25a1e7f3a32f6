// Article Markdown written to run script, opened as a reader opens it: nothing runs, nothing is
// blocked by the Content-Security-Policy (there is nothing to block), and the article's markup
// holds nothing that could run. The same payloads pass through renderMarkdown in
// app/features/articles/markdown-xss.server.test.ts.
import { dangerousMarkup, xssPayloads } from '../fixtures/xss-payloads.ts'
import { expect, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { publishArticles } from './server.ts'

const server = serveCanopy()

test.beforeAll(async () => {
	await publishArticles(
		server(),
		xssPayloads.map((payload, index) => ({
			title: `Payload ${index + 1}`,
			slug: `payload-${index + 1}`,
			// The summary is shown on the page and in its meta tags: the same text goes there too.
			summary: payload.markdown.slice(0, 300),
			body: payload.markdown,
		})),
	)
})

for (const [index, payload] of xssPayloads.entries()) {
	test(`article Markdown renders inert: ${payload.name}`, async ({ page }) => {
		const slug = `payload-${index + 1}`

		const dialogs: string[] = []
		page.on('dialog', (dialog) => {
			dialogs.push(`${dialog.type()}: ${dialog.message()}`)
			void dialog.dismiss()
		})
		await page.addInitScript(() => {
			const violations: string[] = []
			Reflect.set(window, '__cspViolations', violations)
			document.addEventListener('securitypolicyviolation', (event) => {
				violations.push(`${event.violatedDirective} ${event.blockedURI}`)
			})
		})

		const response = await page.goto(`/articles/${slug}`)
		expect(response?.status()).toBe(200)
		await waitForHydration(page)
		// Handlers that need a visitor's move: give every element of the article one.
		await page.locator('.prose').evaluate((prose) => {
			for (const element of prose.querySelectorAll('*')) {
				for (const type of ['mouseover', 'mouseenter', 'focus', 'animationstart']) {
					element.dispatchEvent(new Event(type))
				}
			}
		})
		await page.waitForTimeout(300)

		expect(dialogs).toEqual([])
		expect(await page.evaluate(() => typeof Reflect.get(window, '__xss'))).toBe('undefined')
		expect(await page.evaluate(() => Reflect.get(window, '__cspViolations'))).toEqual([])
		await expect(page).toHaveURL(new RegExp(`/articles/${slug}$`))
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Payload ${index + 1}`)
		expect(await page.locator('.prose').evaluate(dangerousMarkup)).toEqual([])
		// Nowhere on the page (header, summary, meta tags) did an attribute get through.
		const anywhere = await page.evaluate(() =>
			[...document.querySelectorAll('*')].flatMap((element) =>
				[...element.attributes]
					.filter(
						(attribute) =>
							/^on|^srcdoc$/i.test(attribute.name) ||
							/^\s*(javascript|data|vbscript):/i.test(attribute.value.replace(/[\t\n\r]/g, '')),
					)
					.map((attribute) => `${element.tagName} ${attribute.name}=${attribute.value}`),
			),
		)
		expect(anywhere).toEqual([])
	})
}
