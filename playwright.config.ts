import { defineConfig } from '@playwright/test'
import { chromeFlags, chromePath } from './tests/e2e/chrome.ts'
import { type E2eDatabase, e2eDatabases } from './tests/e2e/databases.ts'

// A project per database, named after it (`--project postgres`). Every spec runs on each but the
// audits of the pages' markup (axe.spec.ts, and Lighthouse below), the same whatever the database:
// those run on SQLite only (docs/decisions/018-browser-tests-on-both-databases.md).
const databases = e2eDatabases()
const lighthouse = /lighthouse\.spec\.ts$/
const markupAudits: Record<E2eDatabase, RegExp[]> = {
	sqlite: [lighthouse],
	postgres: [lighthouse, /axe\.spec\.ts$/],
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
		launchOptions: { executablePath: chromePath, args: chromeFlags },
		trace: 'retain-on-failure',
	},
	projects: [
		...databases.map((database) => ({
			name: database,
			testIgnore: markupAudits[database],
			use: { database },
		})),
		{
			// Lighthouse saturates both cores; run it after the rest so it cannot slow the live
			// stream's 1-second budget in a spec running beside it. (If a test fails it does not run;
			// `npm run test:e2e -- --project lighthouse --no-deps` runs it alone.) On SQLite.
			name: 'lighthouse',
			testMatch: lighthouse,
			dependencies: databases,
			timeout: 180_000,
		},
	],
})
