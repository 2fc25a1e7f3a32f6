// The browser every e2e run uses: Debian's chromium, never a downloaded one (there is no network
// for that here), started with flags that keep it off the closed network.
export const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium'

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
