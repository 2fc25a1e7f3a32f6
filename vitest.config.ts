import { globSync, readFileSync } from 'node:fs'
import { defineConfig } from 'vitest/config'

// Kept apart from vite.config.ts: the React Router plugin must not load under Vitest.

// A test of app/ that touches no storage, fixture, process, network, global or mocked module
// shares its worker's module graph with the next file instead of loading React and zod again:
// nothing it does can leak into another file.
const impure =
	/storage|fixtures\/|child_process|createServer|vi\.(mock|doMock|stubGlobal|stubEnv|spyOn|useFakeTimers)|process\.env|globalThis/
const pure = globSync('app/**/*.test.{ts,tsx}').filter(
	(file) => !impure.test(readFileSync(file, 'utf8')),
)

const timed = ['tests/integration/event-loop-guard.test.ts']

export default defineConfig({
	test: {
		setupFiles: ['./tests/setup.ts'],
		environment: 'node',
		testTimeout: 20_000,
		hookTimeout: 30_000,
		pool: 'forks',
		// Vitest's default on two cores is one file at a time, and most integration tests wait on
		// processes, sockets and timers, not on the CPU: three at once take a third of the time.
		maxWorkers: 3,
		projects: [
			{
				// npm run test:install: the lockfile as a new user's npm reads it, first and alone.
				test: { name: 'install', include: ['tests/install/**/*.test.ts'], testTimeout: 120_000 },
			},
			{ test: { name: 'pure', include: pure, isolate: false } },
			{
				test: {
					name: 'integration',
					include: [
						'app/**/*.test.{ts,tsx}',
						'server/**/*.test.ts',
						'storage/**/*.test.ts',
						'tests/integration/**/*.test.ts',
						'tests/fixtures/**/*.test.ts',
					],
					exclude: [...pure, ...timed],
					// The HTTP integration tests serve the production build (tests/global-setup.ts).
					globalSetup: ['./tests/global-setup.ts'],
				},
			},
			{
				// npm run test:timed: tests that compare timings (a reader's latency idle and under
				// attack), alone on the machine so other files' work does not count against them.
				test: {
					name: 'timed',
					include: timed,
					globalSetup: ['./tests/global-setup.ts'],
					maxWorkers: 1,
				},
			},
		],
	},
})
