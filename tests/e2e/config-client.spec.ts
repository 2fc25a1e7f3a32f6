// The browser's remote-config client as far as it runs without the server's side (GET
// /api/config, the root loader's config): loaded after hydration under the page's CSP, it gives
// the visitor a config id cookie, seeds itself with the rendered values so a fresh page asks
// nothing, and keeps that across navigations. The banner and the switches need the server side:
// their browser tests belong with it.
import { expect, serveCanopy, test, waitForHydration } from './canopy-test.ts'

serveCanopy()

test('a first visit gets a config id cookie and fetches no config until one is due', async ({
	page,
	context,
}) => {
	const configRequests: string[] = []
	page.on('request', (request) => {
		if (new URL(request.url()).pathname === '/api/config') configRequests.push(request.url())
	})
	await page.goto('/home')
	await waitForHydration(page)
	await expect
		.poll(async () =>
			(await context.cookies()).find((cookie) => cookie.name === 'canopy_config_id'),
		)
		.toMatchObject({
			value: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
			path: '/',
			sameSite: 'Lax',
			secure: false,
		})
	const cookie = (await context.cookies()).find((each) => each.name === 'canopy_config_id')
	// Max-Age=34560000: 400 days from now.
	expect((cookie?.expires ?? 0) * 1000 - Date.now()).toBeGreaterThan(399 * 24 * 60 * 60 * 1000)
	const seeded = await page.evaluate(() => localStorage.getItem('canopy.config.fetched'))
	expect(JSON.parse(seeded ?? '{}').fetchedAt).toBeGreaterThan(Date.now() - 60_000)

	await page
		.getByRole('navigation', { name: 'Main' })
		.getByRole('link', { name: 'Articles' })
		.click()
	await expect(page).toHaveURL(/\/articles$/)
	await page.reload()
	await waitForHydration(page)
	// The same visitor keeps the same id.
	expect((await context.cookies()).find((each) => each.name === 'canopy_config_id')?.value).toBe(
		cookie?.value,
	)
	expect(configRequests).toEqual([])
})
