import { createHash } from 'node:crypto'
import { globSync, readFileSync } from 'node:fs'
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin'
import babel from '@rolldown/plugin-babel'
import { defineConfig } from 'vitest/config'

// Lingui's macros are compiled by Babel, not by its faster native transform: that one's prebuilt
// binding is an optional dependency requiring Node 22.19, which a new machine's npm, running on
// its system Node, skips without failing (decision 033). The plugin's advice to switch is noise.
process.env.LINGUI_SUPPRESS_BABEL_WARNING ??= '1'

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

// Every project compiles Lingui's macros and catalogues as the app's build does.
const plugins = [babel({ presets: [linguiTransformerBabelPreset()] }), lingui()]

// Vitest keeps transformed modules on disk between runs, keyed on each file's own content; a
// macro's output also depends on lingui.config.ts (its catalogues, its <Trans>), so a change there
// must start a cache of its own, or tests run the old output.
const linguiConfig = createHash('sha256')
	.update(readFileSync('lingui.config.ts'))
	.digest('hex')
	.slice(0, 12)

export default defineConfig({
	test: {
		fsModuleCachePath: `node_modules/.vitest-cache/lingui-${linguiConfig}`,
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
			{ plugins, test: { name: 'pure', include: pure, isolate: false } },
			{
				plugins,
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
				plugins,
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
