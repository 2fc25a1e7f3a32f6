// An admin makes an API key in the browser, copies it once, uses it, and revokes it.

import { expectNoAxeViolations } from './axe-check.ts'
import { expect, screenshotsAtWidths, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { createAccount, signInWithPassword } from './signed-in.ts'

const server = serveCanopy()

test('an admin creates a key, sees it once, and revokes it after confirming', async ({
	page,
	request,
}) => {
	const password = await createAccount(server(), {
		email: 'ada@example.org',
		role: 'admin',
		name: 'Ada Admin',
	})

	await signInWithPassword(page, 'ada@example.org', password, '/admin/api-keys')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('API keys')

	await page.getByLabel('Name').fill('Newsletter import')
	await page.getByRole('button', { name: 'Create key' }).click()
	await expect(page.getByText('Copy it now: it is shown only this once.')).toBeVisible()
	const key = await page.getByLabel('API key').inputValue()
	expect(key).toMatch(/^cnp_[\w-]{43}$/)
	await expectNoAxeViolations(page)

	const withKey = { headers: { Authorization: `Bearer ${key}` } }
	expect((await request.get('/api/admin/articles', withKey)).status()).toBe(200)

	await page.getByRole('link', { name: /^Revoke “Newsletter import”/ }).click()
	await expect(
		page.getByRole('heading', { name: 'Revoke the key “Newsletter import”?' }),
	).toBeVisible()
	await page.getByRole('button', { name: 'Revoke the key' }).click()
	await expect(page.getByText('The key “Newsletter import” is revoked.')).toBeVisible()
	await expect(page.getByRole('row', { name: /Newsletter import/ })).toContainText('Revoked')
	await expect(page.getByLabel('API key')).toHaveCount(0)
	expect((await request.get('/api/admin/articles', withKey)).status()).toBe(401)
})

test('the API’s reference lists every endpoint and field, and links the OpenAPI file', async ({
	page,
}) => {
	const password = await createAccount(server(), {
		email: 'eli@example.org',
		role: 'admin',
		name: 'Eli Admin',
	})
	await page.goto('/admin/sign-in?next=%2Fadmin%2Fapi-keys')
	await waitForHydration(page)
	await page.getByLabel('Email address').fill('eli@example.org')
	await page.getByLabel('Password').fill(password)
	await page.getByRole('button', { name: 'Sign in' }).click()
	await page.getByRole('link', { name: /^The API’s reference/ }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin API reference')
	const contents = page.getByRole('navigation', { name: 'Endpoints' })
	for (const endpoint of [
		'GET /api/admin/articles',
		'POST /api/admin/articles',
		'PUT /api/admin/articles/{id}',
		'POST /api/admin/articles/{id}/publish',
		'POST /api/admin/uploads',
	])
		await expect(contents.getByRole('link', { name: endpoint, exact: true })).toBeVisible()
	const create = page.locator('#post--api-admin-articles')
	await expect(create.getByRole('row', { name: /^title required string/ })).toBeVisible()
	await expect(create.getByRole('row', { name: /^intent/ })).toContainText('"schedule"')
	// The webhooks' events, each linked to what its body holds.
	const events = page.locator('#webhooks')
	await expect(events).toContainText('article.published')
	await events.getByRole('link', { name: 'ContactReceivedEvent' }).click()
	await expect(page.locator('#schema-ContactReceivedEvent')).toBeInViewport()
	await expectNoAxeViolations(page)
	await screenshotsAtWidths(page, 'api-reference', { fullPage: false })
	// The machine-readable description, with the same session.
	const file = await page.request.get('/api/admin/openapi.json')
	expect(file.status()).toBe(200)
	expect((await file.json()).openapi).toBe('3.1.0')
})
