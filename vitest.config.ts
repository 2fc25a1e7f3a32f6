import { defineConfig } from 'vitest/config'

// Kept apart from vite.config.ts: the React Router plugin must not load under Vitest.
export default defineConfig({
	test: {
		include: [
			'app/**/*.test.{ts,tsx}',
			'server/**/*.test.ts',
			'tests/integration/**/*.test.ts',
			'tests/fixtures/**/*.test.ts',
		],
		setupFiles: ['./tests/setup.ts'],
		globalSetup: ['./tests/global-setup.ts'],
		environment: 'node',
		testTimeout: 20_000,
		hookTimeout: 30_000,
		pool: 'forks',
	},
})
