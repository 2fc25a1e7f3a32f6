// Page weight: what a first visit to each public page downloads, gzip-compressed, beside the
// framework runtime every page loads anyway, so the ratio shows what the app itself adds.
// Sizes are zlib level 9 (what a precompressing CDN would send); the bytes the server actually
// sent with Accept-Encoding: gzip (spliced gzip for cached pages, precompressed gzip for assets)
// are printed beside them.
import { readdirSync } from 'node:fs'
import { basename, extname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import type { ServerBuild } from 'react-router'
import { type BenchResult, createNotes } from './support/bench-result.ts'
import { type RunningServer, startCanopy } from './support/canopy-server.ts'
import { getOk } from './support/http-get.ts'
import { publicPages } from './support/pages.ts'
import { kb, met, type Row, row, times } from './support/report.ts'
import { runAlone, type Target } from './support/target.ts'

const budgetBytes = 115_000

interface Asset {
	url: string
	raw: number
	gzip: number
	wire: number
	imports: string[]
	/** React's development build carries its DOM-nesting warnings; the production one does not. */
	developmentReact: boolean
}

interface PageWeight {
	name: string
	html: { raw: number; gzip: number; wire: number; hydrationGzip: number }
	js: string[]
	css: string[]
	notPreloaded: string[]
	entry: string | undefined
}

const gzip9 = (bytes: Buffer | string) => gzipSync(bytes, { level: 9 }).length

function attribute(tag: string, name: string): string | undefined {
	return tag.match(new RegExp(`\\b${name}="([^"]*)"`))?.[1]
}

/** Static imports of an ES module (minified or not). Dynamic import() loads later, on use. */
function staticImports(code: string): string[] {
	return [...code.matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.m?js)["']/g)].map(
		(m) => m[1] as string,
	)
}

function parseHtml(html: string) {
	const tags = (rel: string) =>
		[...html.matchAll(/<link\b[^>]*>/g)]
			.map((m) => m[0])
			.filter((tag) => attribute(tag, 'rel') === rel)
			.map((tag) => attribute(tag, 'href') as string)
	const roots: string[] = []
	for (const [, attrs = '', body = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
		if (attribute(attrs, 'type') !== 'module') continue
		const src = attribute(attrs, 'src')
		if (src) roots.push(src)
		// The inline bootstrap's import() of the entry runs at once, so it is first-view JS.
		roots.push(
			...staticImports(body),
			...[...body.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1] as string),
		)
	}
	const entry = html.match(/"entry":\s*\{\s*"module":\s*"([^"]+)"/)?.[1]
	return { preloads: tags('modulepreload'), stylesheets: tags('stylesheet'), roots, entry }
}

async function fetchAsset(origin: string, url: string): Promise<Asset> {
	const plain = await getOk(new URL(url, origin).href)
	const wire = await getOk(new URL(url, origin).href, { 'accept-encoding': 'gzip' })
	return {
		url,
		raw: plain.body.length,
		gzip: gzip9(plain.body),
		wire: wire.body.length,
		imports: staticImports(plain.body.toString('utf8')).map(
			(spec) => new URL(spec, new URL(url, origin)).pathname,
		),
		developmentReact: plain.body.includes('In HTML, %s cannot be a child of'),
	}
}

function appSourceNames(dir: string, names = new Set<string>()): Set<string> {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		if (entry.isDirectory()) appSourceNames(join(dir, entry.name), names)
		else names.add(basename(entry.name, extname(entry.name)))
	}
	return names
}

/** "/assets/jsx-runtime-Bnu5zZV6.js" → "jsx-runtime": the module the bundler named the chunk after. */
const chunkName = (url: string) => basename(url).replace(/-[\w-]{8}\.m?js$/, '')

export async function measurePageWeight(
	server: RunningServer,
	appDir: string,
): Promise<BenchResult> {
	const { notes, note } = createNotes('page-weight')
	const assets = new Map<string, Promise<Asset>>()
	const asset = (url: string) => {
		let found = assets.get(url)
		if (!found) {
			found = fetchAsset(server.url, url)
			assets.set(url, found)
		}
		return found
	}
	const closure = async (roots: string[]) => {
		const seen = new Set<string>()
		let frontier = [...roots]
		for (let depth = 0; frontier.length > 0 && depth < 50; depth++) {
			const next: string[] = []
			for (const url of frontier) {
				if (seen.has(url)) continue
				seen.add(url)
				next.push(...(await asset(url)).imports)
			}
			frontier = next
		}
		return seen
	}

	const pages: PageWeight[] = []
	for (const page of publicPages) {
		const url = new URL(page.path, server.url).href
		await getOk(url) // the first visit fills the page cache; measure what later visitors get
		const plain = await getOk(url)
		const wire = await getOk(url, { 'accept-encoding': 'gzip' })
		const html = plain.body.toString('utf8')
		const parsed = parseHtml(html)
		const loaded = await closure(parsed.roots)
		const notPreloaded = [...loaded].filter((u) => !parsed.preloads.includes(u))
		const withoutHydration = html.replace(
			/<script\b[^>]*>window\.__reactRouterContext\.streamController[\s\S]*?<\/script>/g,
			'',
		)
		pages.push({
			name: page.name,
			html: {
				raw: plain.body.length,
				gzip: gzip9(plain.body),
				wire: wire.body.length,
				hydrationGzip: gzip9(plain.body) - gzip9(withoutHydration),
			},
			js: [...new Set([...parsed.preloads, ...loaded])],
			css: parsed.stylesheets,
			notPreloaded,
			entry: parsed.entry,
		})
	}

	const sum = async (urls: string[], key: 'gzip' | 'wire' | 'raw') =>
		(await Promise.all(urls.map(asset))).reduce((total, a) => total + a[key], 0)

	// The runtime: the entry chunk with everything it imports, and every other chunk all four
	// pages load that is not named after a file of ours (React, React DOM, React Router).
	const ours = appSourceNames(appDir)
	const entry = pages.find((p) => p.entry)?.entry
	if (!entry) throw new Error('No entry module found in the pages’ React Router manifest')
	const everyPage = pages.map((p) => new Set(p.js))
	const shared = [...(everyPage[0] ?? [])].filter((u) => everyPage.every((set) => set.has(u)))
	const runtime = [
		...new Set([...(await closure([entry])), ...shared.filter((u) => !ours.has(chunkName(u)))]),
	]
	const runtimeGzip = await sum(runtime, 'gzip')
	note(
		`runtime (${runtime.length} chunks, ${kb(runtimeGzip)} gzip -9): ${runtime.map(chunkName).join(', ')}`,
	)

	const rows: Row[] = [
		row({
			bench: 'page-weight',
			figure: 'framework runtime JS',
			value: `${kb(runtimeGzip)} (${runtime.length} files)`,
			baseline: 'reference: minimal RR8 app ~113 KB',
			status: 'info',
		}),
	]
	for (const page of pages) {
		const jsGzip = await sum(page.js, 'gzip')
		const jsWire = await sum(page.js, 'wire')
		const cssGzip = await sum(page.css, 'gzip')
		const cssWire = await sum(page.css, 'wire')
		const appJs = page.js.filter((u) => !runtime.includes(u))
		note(
			`${page.name}: HTML ${kb(page.html.raw)} raw, ${kb(page.html.gzip)} gzip -9, ${kb(page.html.wire)} as the server sent it, ` +
				`hydration data ${kb(page.html.hydrationGzip)} of the gzip; JS ${kb(jsGzip)} gzip -9 (${kb(jsWire)} as sent) in ${page.js.length} files; ` +
				`CSS ${kb(cssGzip)} (${kb(cssWire)} as sent)`,
		)
		for (const url of appJs) note(`  app chunk ${chunkName(url)}: ${kb((await asset(url)).gzip)}`)
		if (page.notPreloaded.length > 0)
			note(`  NOT preloaded (a request waterfall): ${page.notPreloaded.join(', ')}`)
		const isArticle = page.name === 'article'
		rows.push(
			row({
				bench: 'page-weight',
				figure: `${page.name} JS, first view`,
				value: `${kb(jsGzip)} (${page.js.length} files)`,
				baseline: `runtime ${kb(runtimeGzip)}`,
				ratio: times(jsGzip, runtimeGzip),
				target: isArticle ? `≤ ${kb(budgetBytes)}` : '',
				status: isArticle ? met(jsGzip <= budgetBytes) : 'info',
			}),
			row({
				bench: 'page-weight',
				figure: `${page.name} HTML · CSS`,
				value: `${kb(page.html.gzip)} · ${kb(cssGzip)}`,
			}),
		)
	}
	const development = (await Promise.all([...assets.values()])).filter((a) => a.developmentReact)
	if (development.length > 0) {
		note(
			`React DEVELOPMENT build in ${development.map((a) => chunkName(a.url)).join(', ')}: built without NODE_ENV=production`,
		)
	}
	rows.push(
		row({
			bench: 'page-weight',
			figure: 'React production build shipped',
			value:
				development.length === 0
					? 'yes'
					: `no: development React in ${development.map((a) => chunkName(a.url)).join(', ')}`,
			target: 'production build',
			status: met(development.length === 0),
		}),
	)
	// The editor area's own files: what its routes load (from the build's route manifest) that is
	// named after one of its own sources (its routes, the editor, uploads, API keys), and every
	// built file named after its styles, the analytics dashboard's sources or the dashboard's chart
	// library (uPlot), wherever it is loaded from: stylesheets linked by URL and chunks loaded
	// lazily are in no route's list. A public page must load none of them.
	const builtDir = join(appDir, '..', 'build')
	const { assets: manifest } = (await import(
		pathToFileURL(join(builtDir, 'server/index.js')).href
	)) as ServerBuild
	const dashboardSources = [...appSourceNames(join(appDir, 'features/analytics'))].filter((name) =>
		name.includes('dashboard'),
	)
	const editorOnlySources = new Set([
		...[...appSourceNames(join(appDir, 'styles'))].filter((name) => name.startsWith('admin')),
		...dashboardSources,
		...['uPlot.esm', 'uPlot.min'],
	])
	const readerSide = new Set(['picture', 'image-types'])
	const editorSources = new Set([
		...appSourceNames(join(appDir, 'routes/admin')),
		...appSourceNames(join(appDir, 'routes/api')),
		// The uploads feature is the editor's, but for what readers' pages show of its images:
		// the <picture> of a cover and the image types it names.
		...[...appSourceNames(join(appDir, 'features/uploads'))].filter(
			(name) => !readerSide.has(name),
		),
		...appSourceNames(join(appDir, 'features/api-keys')),
		...editorOnlySources,
		...['article-editor', 'editor-form', 'local-time', 'team-list', 'new-password-field'],
	])
	const routeFiles = (pattern: RegExp) =>
		Object.entries(manifest.routes)
			.filter(([id]) => pattern.test(id))
			.flatMap(([, route]) =>
				route ? [route.module, ...(route.imports ?? []), ...(route.css ?? [])] : [],
			)
	const sourceOf = (file: string) => chunkName(file).replace(/-[\w-]{8}\.css$/, '')
	const editorOnly = readdirSync(join(builtDir, 'client/assets'))
		.filter((file) => /\.(m?js|css)$/.test(file))
		.map((file) => `/assets/${file}`)
		.filter((file) => editorOnlySources.has(sourceOf(file)))
	const editorArea = [
		...new Set([
			...routeFiles(/^routes\/(admin|api)\//).filter((file) => editorSources.has(sourceOf(file))),
			...editorOnly,
		]),
	]
	note(`editor-area files: ${editorArea.map((file) => basename(file)).join(', ')}`)
	const publicFiles = new Set(pages.flatMap((p) => [...p.js, ...p.css]))
	const leaked = editorArea.filter((file) => publicFiles.has(file))
	rows.push(
		row({
			bench: 'page-weight',
			figure: 'editor-area files on public pages',
			value:
				leaked.length === 0
					? `none of ${editorArea.length}`
					: leaked.map((file) => basename(file)).join(', '),
			baseline: `${publicFiles.size} files on the public pages`,
			target: 'none',
			status: met(leaked.length === 0),
		}),
	)
	const missing = pages.flatMap((p) => p.notPreloaded.map((u) => `${p.name}: ${chunkName(u)}`))
	rows.push(
		row({
			bench: 'page-weight',
			figure: 'first-view JS all modulepreloaded',
			value: missing.length === 0 ? 'yes' : `no: ${missing.join(', ')}`,
			target: 'every static import preloaded',
			status: met(missing.length === 0),
		}),
	)
	// The interface's catalogues (decision 033): entry.client loads its language's public one
	// before hydrating (an import() the crawl above does not follow), the forms' pages and the
	// staff area theirs. One chunk per language; the largest stands for a page's cost.
	const catalogues = readdirSync(join(builtDir, 'client/assets')).filter((file) =>
		/^(public|forms|staff)-[\w-]{8}\.js$/.test(file),
	)
	const catalogueGzip = async (area: string) =>
		Math.max(
			0,
			...(await Promise.all(
				catalogues
					.filter((file) => file.startsWith(`${area}-`))
					.map(async (file) => (await asset(`/assets/${file}`)).gzip),
			)),
		)
	const [publicCatalogue = 0, formsCatalogue = 0, staffCatalogue = 0] = await Promise.all(
		['public', 'forms', 'staff'].map(catalogueGzip),
	)
	note(
		`catalogues, largest language, gzip -9: public ${kb(publicCatalogue)}, forms ${kb(formsCatalogue)}, staff ${kb(staffCatalogue)}`,
	)
	const article = pages.find((page) => page.name === 'article')
	if (article) {
		const jsGzip = await sum(article.js, 'gzip')
		rows.push(
			row({
				bench: 'page-weight',
				figure: 'article JS with its language’s public catalogue',
				value: kb(jsGzip + publicCatalogue),
				baseline: `catalogue ${kb(publicCatalogue)}`,
				status: 'info',
			}),
		)
	}
	return { rows, notes }
}

export async function run(target: Target): Promise<BenchResult> {
	const server = await startCanopy(target)
	try {
		return await measurePageWeight(server, join(target.root, 'app'))
	} finally {
		await server.stop()
	}
}

if (import.meta.main) await runAlone(run)
