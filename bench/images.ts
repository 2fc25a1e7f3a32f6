// Images (decision 023): what a phone downloads for an article with a camera photo, beside the
// photo as uploaded (what every page sent before versions); how soon a 24-megapixel photo's
// versions are ready, and what making them costs the site's page p99 meanwhile, beside its idle
// p99 in the same run; the storage an image takes with its versions, beside the image alone.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import sharp from 'sharp'
import { storageRules } from '#server/storage-rules.ts'
import { openSqliteStorage } from '#storage/sqlite/open-sqlite.ts'
import { makeApiKey } from '#tests/fixtures/api-key.ts'
import { chromeFlags, chromePath } from '../tests/e2e/chrome.ts'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { startCanopy } from './support/canopy-server.ts'
import { runLoad } from './support/load-run.ts'
import { renderEveryTime } from './support/pages.ts'
import { kb, met, ms, percentile, row, times } from './support/report.ts'
import { runAlone, type Target } from './support/target.ts'

const bench = 'images'
const phoneBudgetBytes = 120_000
const readyTargetMs = 10_000
const bigPhotos = 5

/**
 * A photo's statistics without a camera: smooth colour regions (a few dozen random colours
 * blown up) with sensor-like grain. It compresses like a photo, unlike a flat test card.
 */
async function cameraPhoto(width: number, height: number, seed: number): Promise<Uint8Array> {
	const cells = Buffer.alloc(48 * 32 * 3)
	let state = seed
	for (let i = 0; i < cells.length; i++) {
		state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0
		cells[i] = 40 + (state >>> 24) * 0.7
	}
	const base = await sharp(cells, { raw: { width: 48, height: 32, channels: 3 } })
		.resize(width, height, { kernel: 'cubic' })
		.png()
		.toBuffer()
	const grain = await sharp({
		create: {
			width,
			height,
			channels: 3,
			background: '#808080',
			noise: { type: 'gaussian', mean: 128, sigma: 14 },
		},
	})
		.png()
		.toBuffer()
	const photo = await sharp(base)
		.composite([{ input: grain, blend: 'soft-light' }])
		.jpeg({ quality: 90 })
		.toBuffer()
	return new Uint8Array(photo)
}

/** The page's cumulative layout shift so far (shifts right after input do not count). */
function layoutShift(page: Page): Promise<number> {
	return page.evaluate(
		() =>
			new Promise<number>((resolve) => {
				let total = 0
				new PerformanceObserver((list) => {
					for (const entry of list.getEntries() as (PerformanceEntry & {
						value: number
						hadRecentInput: boolean
					})[])
						if (!entry.hadRecentInput) total += entry.value
				}).observe({ type: 'layout-shift', buffered: true })
				setTimeout(() => resolve(total), 200)
			}),
	)
}

export async function run(target: Target): Promise<BenchResult> {
	const { notes, note } = createNotes(bench)
	const dataDir = mkdtempSync(join(tmpdir(), 'canopy-bench-images-'))
	const server = await startCanopy(target, { dataDir })
	const storage = openSqliteStorage(join(dataDir, 'canopy.db'), { rules: storageRules })
	try {
		const key = await makeApiKey(storage, server.url)
		const api = (path: string, init: RequestInit) =>
			fetch(`${server.url}${path}`, {
				...init,
				headers: { Authorization: `Bearer ${key}`, ...init.headers },
			})
		const upload = async (bytes: Uint8Array) => {
			const response = await api('/api/admin/uploads', {
				method: 'POST',
				headers: { 'Content-Type': 'image/jpeg' },
				body: new Uint8Array(bytes),
			})
			if (response.status !== 201) throw new Error(`upload: ${response.status}`)
			return ((await response.json()) as { upload: { url: string; hash: string; size: number } })
				.upload
		}
		const versionsReady = async (url: string, deadlineMs: number) => {
			const widest = url.replace(/\.jpg$/, '-1600.avif')
			const until = performance.now() + deadlineMs
			while (performance.now() < until) {
				const head = await fetch(`${server.url}${widest}`, { method: 'HEAD', redirect: 'manual' })
				if (head.status === 200) return true
				await new Promise((resolve) => setTimeout(resolve, 100))
			}
			return false
		}

		// 1. A phone reading an article with a 2400 × 1600 camera photo as its cover and in its text.
		const cover = await upload(await cameraPhoto(2400, 1600, 7))
		const inText = await upload(await cameraPhoto(2400, 1600, 11))
		await versionsReady(cover.url, 60_000)
		await versionsReady(inText.url, 60_000)
		const published = await api('/api/admin/articles', {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({
				title: 'The heron count',
				summary: 'A dawn count on the mudflats.',
				body: `${'We counted at dawn, when the tide was out. '.repeat(30)}\n\n![A grey heron in the reeds](${inText.url} "At 6 a.m.")\n\n${'Ninety-two herons, up from sixty. '.repeat(20)}`,
				cover: cover.url,
				coverAlt: 'The estuary at low tide',
				status: 'published',
			}),
		})
		const { article } = (await published.json()) as { article: { slug: string } }
		const browser = await chromium.launch({ executablePath: chromePath, args: chromeFlags })
		let phoneBytes = 0
		const phoneImages: string[] = []
		try {
			// Lighthouse's mobile emulation: device scale 1.75, touch, a phone's width.
			const page = await browser.newPage({
				viewport: { width: 390, height: 844 },
				deviceScaleFactor: 1.75,
				isMobile: true,
				hasTouch: true,
			})
			page.on('response', async (response) => {
				if (response.request().resourceType() !== 'image') return
				const body = await response.body().catch(() => Buffer.alloc(0))
				phoneBytes += body.byteLength
				phoneImages.push(
					`${response
						.url()
						.replace(server.url, '')
						.replace(/[0-9a-f]{64}/, '…')} ${kb(body.byteLength)}`,
				)
			})
			await page.goto(`${server.url}/articles/${article.slug}`, { waitUntil: 'networkidle' })
			await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
			await page.waitForLoadState('networkidle')
			await page.waitForTimeout(500)
			note(`phone (390 px, ×1.75): ${phoneImages.join(', ')}`)
			const articleBytes = phoneBytes
			// Layout shift on each public page, loaded and scrolled to its end as a reader does.
			const shiftsOn: Record<string, number> = {}
			for (const path of ['/home', '/articles', `/articles/${article.slug}`, '/contact']) {
				await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' })
				await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
				await page.waitForTimeout(300)
				shiftsOn[path] = await layoutShift(page)
			}
			const shifts = Math.max(...Object.values(shiftsOn))
			note(
				`layout shift: ${Object.entries(shiftsOn)
					.map(([path, value]) => `${path} ${value.toFixed(3)}`)
					.join(', ')}`,
			)
			const originals = cover.size + inText.size
			notes.push(`originals: ${kb(cover.size)} + ${kb(inText.size)}`)
			const rows = [
				row({
					bench,
					figure: 'image bytes: article with two 2400×1600 photos, 390 px phone',
					value: kb(articleBytes),
					baseline: `${kb(originals)} (the photos as uploaded)`,
					ratio: times(articleBytes, originals),
					target: `≤ ${kb(phoneBudgetBytes)}`,
					status: met(articleBytes <= phoneBudgetBytes),
				}),
				row({
					bench,
					figure: 'layout shift, worst public page (phone)',
					value: shifts.toFixed(3),
					target: '0',
					status: met(shifts === 0),
				}),
			]

			// 2. Versions of 24-megapixel photos, while every page is rendered (renderEveryTime).
			const photos: Uint8Array[] = []
			for (let i = 0; i < bigPhotos; i++) photos.push(await cameraPhoto(6000, 4000, 100 + i))
			note(`24 MP photos: ${photos.map((photo) => kb(photo.byteLength)).join(', ')}`)
			const load = (seconds: number) =>
				runLoad(target, {
					url: `${server.url}/articles/${article.slug}`,
					connections: 4,
					warmupSeconds: 2,
					seconds,
					headers: renderEveryTime,
				})
			const idle = await load(8)
			const readyMs: number[] = []
			const stored: { hash: string; size: number }[] = []
			const busy = load(20)
			await new Promise((resolve) => setTimeout(resolve, 2_500))
			for (const photo of photos) {
				const started = performance.now()
				const made = await upload(photo)
				const ready = await versionsReady(made.url, 60_000)
				readyMs.push(ready ? performance.now() - started : Number.POSITIVE_INFINITY)
				stored.push(made)
			}
			const during = await busy
			readyMs.sort((a, b) => a - b)
			note(`versions ready after upload (ms): ${readyMs.map((v) => Math.round(v)).join(', ')}`)
			note(
				`page p99, rendered: idle ${ms(idle.p99)} (${Math.round(idle.requestsPerSecond)} req/s), while versions were made ${ms(during.p99)} (${Math.round(during.requestsPerSecond)} req/s)`,
			)
			const ready99 = percentile(readyMs, 99)
			rows.push(
				row({
					bench,
					figure: `versions ready after a 24 MP upload, p99 of ${bigPhotos}`,
					value: ms(ready99),
					target: `≤ ${ms(readyTargetMs)}`,
					status: met(ready99 <= readyTargetMs),
				}),
				row({
					bench,
					figure: 'article page p99 (uncached) while versions are made',
					value: ms(during.p99),
					baseline: `${ms(idle.p99)} idle`,
					ratio: times(during.p99, idle.p99),
					target: '≤ 2×',
					status: met(during.p99 <= 2 * idle.p99),
				}),
			)

			// 3. What an image costs to keep, with its versions.
			for (const [label, image] of [
				['2400×1600 photo', cover],
				['24 MP photo', stored[0]],
			] as const) {
				if (!image) continue
				const versions = await storage.uploads.versionsOf(image.hash)
				const total = versions.reduce((sum, version) => sum + version.size, 0)
				rows.push(
					row({
						bench,
						figure: `storage: ${label} with its ${versions.length} versions`,
						value: kb(image.size + total),
						baseline: `${kb(image.size)} (the image alone)`,
						ratio: times(image.size + total, image.size),
					}),
				)
			}
			return { rows, notes }
		} finally {
			await browser.close()
		}
	} finally {
		await storage.close()
		await server.stop()
		rmSync(dataDir, { recursive: true, force: true })
	}
}

if (import.meta.main) await runAlone(run)
