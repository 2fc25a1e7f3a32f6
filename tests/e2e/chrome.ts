// The browsers the e2e runs use: Debian's, never a downloaded one (there is no network for that
// here), started with flags that keep them off the closed network.
import { existsSync } from 'node:fs'

/** Debian's chromium: the whole browser, for what only it has (the Push API) and Lighthouse. */
export const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium'

/**
 * Debian's chromium-headless-shell: the same Blink and V8 without the desktop browser around
 * them, as Playwright itself runs headless tests. It needs about a third of the CPU time
 * (docs/decisions/020-faster-test-runs.md); the whole browser stands in where it is missing.
 */
export const headlessShellPath =
	process.env.CHROME_HEADLESS_SHELL_PATH || '/usr/bin/chromium-headless-shell'

export const pageBrowserPath = existsSync(headlessShellPath) ? headlessShellPath : chromePath

// Without the networking flags chromium floods the closed network with connections.
export const chromeFlags = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-dev-shm-usage',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
]

/** `test.use(wholeBrowser)` in a spec that needs the Push API, which the headless shell lacks. */
export const wholeBrowser = { launchOptions: { executablePath: chromePath, args: chromeFlags } }
