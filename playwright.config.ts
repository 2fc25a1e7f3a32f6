import { defineConfig } from '@playwright/test'
import { chromeFlags, pageBrowserPath } from './tests/e2e/chrome.ts'
import { type E2eDatabase, e2eDatabases } from './tests/e2e/databases.ts'

// A project per database, named after it (`--project postgres`). On PostgreSQL run the tests of
// what is stored, in what order, and what readers see after a write; what the browser draws from
// data any database returns alike runs on SQLite only: the audits of the pages' markup (axe.spec.ts,
// and Lighthouse below), the specs of the page's own behaviour (XSS, the public and staff shells,
// the contact form's) and each test marked `interfaceOnly` (canopy-test.ts).
// docs/decisions/018-browser-tests-on-both-databases.md says why.
// The test processes themselves (not the servers they start, which run as in production): an
// account a spec makes for itself is hashed at the tests' cost (signed-in.ts).
process.env.NODE_ENV ??= 'test'

const databases = e2eDatabases()
const lighthouse = /lighthouse\.spec\.ts$/
const sqliteOnly = [
	/axe\.spec\.ts$/,
	/xss\.spec\.ts$/,
	/\/shell\.spec\.ts$/,
	/staff-shell\.spec\.ts$/,
	/contact\.spec\.ts$/,
]
const ignored: Record<E2eDatabase, RegExp[]> = {
	sqlite: [lighthouse],
	postgres: [lighthouse, ...sqliteOnly],
}

export default defineConfig<{ database: E2eDatabase }>({
	testDir: 'tests/e2e',
	// Each spec file starts its own server (tests/e2e/server.ts); no webServer block.
	fullyParallel: false,
	// The machine has two cores: a server, a browser and the runner per worker already share them.
	workers: 2,
	retries: 0,
	forbidOnly: true,
	reporter: 'list',
	timeout: 30_000,
	expect: { timeout: 5_000 },
	use: {
		browserName: 'chromium',
		launchOptions: { executablePath: pageBrowserPath, args: chromeFlags },
		// Recording costs about a tenth of the run; `npm run test:e2e -- --trace on` records.
		trace: 'off',
	},
	projects: [
		{
			// First and beside the others, not after them: its four pages take a worker for about
			// 25 s. What it measures (accessibility, best practices, SEO) does not depend on speed,
			// and the specs running beside it keep their time budgets on a busy machine (tested with
			// a core kept busy). `npm run test:e2e -- --project lighthouse` runs it alone. On SQLite.
			name: 'lighthouse',
			testMatch: lighthouse,
			timeout: 180_000,
		},
		...databases.map((database) => ({
			name: database,
			testIgnore: ignored[database],
			grepInvert: database === 'postgres' ? /@interface/ : undefined,
			use: { database },
		})),
	],
})
