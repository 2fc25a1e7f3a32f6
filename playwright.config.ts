import { defineConfig } from '@playwright/test'
import { chromeFlags, chromePath } from './tests/e2e/chrome.ts'

export default defineConfig({
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
		{ name: 'site', testIgnore: /lighthouse\.spec\.ts$/ },
		{
			// Lighthouse saturates both cores; run it after the rest so it cannot slow the live
			// stream's 1-second budget in a spec running beside it. (If a site test fails it does not
			// run; `npm run test:e2e -- --project lighthouse --no-deps` runs it alone.)
			name: 'lighthouse',
			testMatch: /lighthouse\.spec\.ts$/,
			dependencies: ['site'],
			timeout: 180_000,
		},
	],
})
