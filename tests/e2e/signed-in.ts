// One account and one sign-in per spec file (sign-in is rate-limited per address and per
// account), then every test's pages start with its cookie.
import { randomBytes } from 'node:crypto'
import type { BrowserContext, Page } from '@playwright/test'
import { expect, test, waitForHydration } from './canopy-test.ts'
import type { CanopyServer } from './server.ts'

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>

export interface Account {
	email: string
	name: string
	role: 'admin' | 'editor'
}

/**
 * Makes an account in the server's database with the feature code `user:create` runs, and gives
 * its password. The playwright config sets NODE_ENV=test for the test processes, so its hash is
 * at the tests' cost and its sign-in costs the server milliseconds, not a second of scrypt; the
 * cost is stored with the hash. (admin.spec.ts makes its account with the CLI, as an operator.)
 */
export async function createAccount(server: CanopyServer, account: Account): Promise<string> {
	const { authSecret, openAuth } = await import('#app/features/auth/auth.server.ts')
	const { createUser } = await import('#app/features/auth/users.server.ts')
	const { createLogger } = await import('#server/logger.ts')
	const password = randomBytes(18).toString('base64url')
	await server.withStorage(async (storage) => {
		const auth = await openAuth({
			storage,
			database: storage.authDatabase,
			siteUrl: server.url,
			secret: await authSecret(storage),
			logger: createLogger('silent'),
		})
		const made = await createUser(auth, storage, { ...account, password })
		expect(made.ok, JSON.stringify(made)).toBe(true)
	})
	return password
}

/**
 * Signs in on the sign-in page as a person does, in whatever language the page is (the fields by
 * name, Enter in the password), and waits for `next`, an editor-area path, to be hydrated.
 */
export async function signInWithPassword(
	page: Page,
	email: string,
	password: string,
	next = '/admin',
): Promise<void> {
	await page.goto(`/admin/sign-in?next=${encodeURIComponent(next)}`)
	await waitForHydration(page)
	await page.locator('input[name="email"]').fill(email)
	const field = page.locator('input[name="password"]')
	await field.fill(password)
	await field.press('Enter')
	await page.waitForURL((url) => url.pathname === next)
	await waitForHydration(page)
}

/**
 * Makes the account (createAccount) and signs it in once, in beforeAll; the file's tests then run
 * signed in. Returns the saved session, for pages a test opens itself (browser.newPage).
 */
export function signedInAs(server: () => CanopyServer, account: Account): () => StorageState {
	let session: StorageState | undefined
	test.beforeAll(async ({ browser }) => {
		const password = await createAccount(server(), account)
		const context = await browser.newContext({ baseURL: server().url })
		const page = await context.newPage()
		await signInWithPassword(page, account.email, password)
		session = await context.storageState()
		await context.close()
	})
	test.use({
		// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
		storageState: async ({}, use) => {
			await use(session)
		},
	})
	return () => {
		if (!session) throw new Error('The spec file has not signed in yet.')
		return session
	}
}
