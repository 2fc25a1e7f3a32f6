// /metrics as an operator uses it: off without METRICS_TOKEN, refused without the token, and
// scraped by a real Prometheus (Debian's), whose own API then answers queries on Canopy's figures.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, type ServerProcess, startServer } from '#tests/fixtures/process.ts'

const prometheusPath = process.env.PROMETHEUS_PATH || '/usr/bin/prometheus'
const promtoolPath = join(prometheusPath, '..', 'promtool')
const prometheusInstalled = existsSync(prometheusPath)
if (!prometheusInstalled && process.env.CI) {
	throw new Error(
		`The metrics test needs Prometheus, and there is none at ${prometheusPath}. Install it with: apt-get install -y prometheus (.ci/run does), or set PROMETHEUS_PATH.`,
	)
}
if (!prometheusInstalled)
	console.warn(`metrics.test.ts: no Prometheus at ${prometheusPath}; its scrape is not tried.`)

const token = 'metrics-token-for-the-test-0123456789'

describe('/metrics', () => {
	let dataDir: string
	let server: ServerProcess

	beforeAll(async () => {
		dataDir = mkdtempSync(join(tmpdir(), 'canopy-metrics-'))
		server = await startServer(
			{ DATA_DIR: join(dataDir, 'site'), DATABASE_URL: '', METRICS_TOKEN: token },
			await freePort(),
		)
	})
	afterAll(async () => {
		server?.child.kill('SIGTERM')
		await server?.exited
		rmSync(dataDir, { recursive: true, force: true })
	})

	const scrape = (headers: Record<string, string> = { Authorization: `Bearer ${token}` }) =>
		fetch(`${server.url}/metrics`, { headers, redirect: 'manual' })

	it('answers only a bearer of METRICS_TOKEN', async () => {
		const none = await scrape({})
		expect(none.status).toBe(401)
		expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"')
		expect((await scrape({ Authorization: `Bearer ${token.slice(1)}x` })).status).toBe(401)
		const scraped = await scrape()
		expect(scraped.status).toBe(200)
		expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
	})

	it('counts requests by route, the page cache, open streams and the queues', async () => {
		// The first /articles is rendered and kept, the second a hit; three articles, one route.
		for (const path of [
			'/articles',
			'/articles',
			'/articles/the-living-ground',
			'/articles/no-such',
		])
			await (await fetch(`${server.url}${path}`)).arrayBuffer()
		const stream = await fetch(`${server.url}/api/articles/stream`)
		const reader = (stream.body as ReadableStream<Uint8Array>).getReader()
		await reader.read()
		const text = await (await scrape()).text()
		await reader.cancel()
		expect(text).toContain(
			'canopy_http_requests_total{route="/articles",method="GET",status="200"} 2',
		)
		expect(text).toMatch(
			/canopy_http_requests_total\{route="\/articles\/:slug",method="GET",status="200"\} 1\n/,
		)
		expect(text).toMatch(
			/canopy_http_requests_total\{route="\/articles\/:slug",method="GET",status="404"\} 1\n/,
		)
		expect(text).toMatch(
			/canopy_http_request_duration_seconds_bucket\{le="0\.1",route="\/articles",method="GET"\} [12]\n/,
		)
		expect(text).toContain('canopy_page_cache_requests_total{result="hit"} 1')
		expect(text).toContain('canopy_live_streams{topic="articles"} 1')
		expect(text).toContain('canopy_queue_waiting{queue="mail"} 0')
		expect(text).toContain('canopy_queue_oldest_seconds{queue="push"} 0')
		expect(text).toMatch(/canopy_job_lag_seconds\{job="[\w-]+"\} \d/)
		expect(text).toContain('nodejs_eventloop_lag_p99_seconds')
		// SQLite has no pool to report.
		expect(text).not.toContain('canopy_db_pool_connections{')
	})

	it('is not there without METRICS_TOKEN', async () => {
		const plain = await startServer(
			{ DATA_DIR: join(dataDir, 'plain'), DATABASE_URL: '' },
			await freePort(),
		)
		try {
			const answer = await fetch(`${plain.url}/metrics`, {
				headers: { Authorization: `Bearer ${token}` },
				redirect: 'manual',
			})
			// Any other address of the site: it goes home.
			expect(answer.status).toBe(302)
			expect(answer.headers.get('location')).toBe('/home')
		} finally {
			plain.child.kill('SIGTERM')
			await plain.exited
		}
	})

	it.runIf(prometheusInstalled)(
		'is valid for promtool and scraped by a real Prometheus',
		async () => {
			const body = await (await scrape()).text()
			const lint = spawnSync(promtoolPath, ['check', 'metrics'], { input: body, encoding: 'utf8' })
			const remarks = `${lint.stderr}${lint.stdout}`.split('\n').filter(Boolean)
			expect(remarks).toEqual([])

			const port = await freePort()
			const folder = join(dataDir, 'prometheus')
			const config = join(dataDir, 'prometheus.yml')
			const target = new URL(server.url).host
			writeFileSync(
				config,
				`global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: canopy\n    authorization:\n      type: Bearer\n      credentials: ${token}\n    static_configs:\n      - targets: ['${target}']\n`,
			)
			const prometheus: ChildProcess = spawn(
				prometheusPath,
				[
					`--config.file=${config}`,
					`--storage.tsdb.path=${folder}`,
					`--web.listen-address=127.0.0.1:${port}`,
				],
				{ stdio: 'ignore' },
			)
			try {
				const api = `http://127.0.0.1:${port}/api/v1`
				let health = ''
				for (let i = 0; i < 100 && health !== 'up'; i++) {
					await new Promise((resolve) => setTimeout(resolve, 200))
					// Not up yet: no answer, or 503 while its storage opens.
					const targets = await fetch(`${api}/targets`).then(
						(r) => (r.ok ? r.json() : undefined),
						() => undefined,
					)
					health = targets?.data?.activeTargets?.[0]?.health ?? ''
				}
				expect(health).toBe('up')
				const query = async (expression: string) => {
					const answer = await fetch(`${api}/query?query=${encodeURIComponent(expression)}`)
					return ((await answer.json()) as { data: { result: { value: [number, string] }[] } }).data
						.result
				}
				const requests = await query('sum(canopy_http_requests_total{route="/articles"})')
				expect(Number(requests[0]?.value[1])).toBeGreaterThanOrEqual(2)
				expect((await query('canopy_queue_waiting{queue="mail"}'))[0]?.value[1]).toBe('0')

				// What deploy/ gives operators: every panel's query is one this Prometheus takes (a
				// mistyped expression answers 400), and the alerting rules pass promtool.
				const dashboard = JSON.parse(readFileSync('deploy/grafana-dashboard.json', 'utf8')) as {
					panels: { title: string; targets: { expr: string }[] }[]
				}
				for (const panel of dashboard.panels)
					for (const { expr } of panel.targets) {
						const answer = await fetch(
							`${api}/query?query=${encodeURIComponent(expr.replaceAll('$instance', '.*'))}`,
						)
						expect(answer.status, `${panel.title}: ${expr}`).toBe(200)
					}
				const rules = spawnSync(promtoolPath, ['check', 'rules', 'deploy/prometheus-alerts.yml'], {
					encoding: 'utf8',
				})
				expect(rules.stdout).toContain('SUCCESS: 7 rules found')
			} finally {
				prometheus.kill('SIGTERM')
				await new Promise((resolve) => prometheus.once('exit', resolve))
			}
		},
	)
})
