// One account and one sign-in per spec file (sign-in is rate-limited per address and per
// account), then every test's pages start with its cookie.
import type { BrowserContext } from '@playwright/test'
import { expect, test, waitForHydration } from './canopy-test.ts'
import { type CanopyServer, runCli } from './server.ts'

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>

export interface Account {
	email: string
	name: string
	role: 'admin' | 'editor'
}

/**
 * Makes the account with the CLI and signs it in once, in beforeAll; the file's tests then run
 * signed in. Returns the saved session, for pages a test opens itself (browser.newPage).
 */
export function signedInAs(server: () => CanopyServer, account: Account): () => StorageState {
	let session: StorageState | undefined
	test.beforeAll(async ({ browser }) => {
		const created = await runCli(server(), [
			'user:create',
			'--email',
			account.email,
			'--role',
			account.role,
			'--name',
			account.name,
		])
		expect(created.code, created.stderr).toBe(0)
		const password =
			/Password \(shown once; keep it somewhere safe\): (\S+)/.exec(created.stdout)?.[1] ?? ''
		expect(password).not.toBe('')
		const context = await browser.newContext({ baseURL: server().url })
		const page = await context.newPage()
		await page.goto('/admin/sign-in')
		await waitForHydration(page)
		await page.getByLabel('Email address').fill(account.email)
		await page.getByLabel('Password').fill(password)
		await page.getByRole('button', { name: 'Sign in' }).click()
		await expect(page).toHaveURL(/\/admin$/)
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
