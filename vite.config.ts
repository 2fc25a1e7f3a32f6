import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin'
import babel from '@rolldown/plugin-babel'
import { reactRouter } from '@react-router/dev/vite'
import { build, defineConfig, type Plugin } from 'vite'

// Lingui's macros are compiled by Babel, not by its faster native transform: that one's prebuilt
// binding is an optional dependency requiring Node 22.19, which a new machine's npm, running on
// its system Node, skips without failing (decision 033). The plugin's advice to switch is noise.
process.env.LINGUI_SUPPRESS_BABEL_WARNING ??= '1'

/** The service worker's source, and where browsers fetch it: its scope is the whole site. */
const serviceWorkerEntry = 'app/features/push/service-worker.ts'
const serviceWorkerFile = 'sw.js'

/** The service worker as one classic script: workers cannot load the app's ES module chunks. */
async function bundleServiceWorker(outDir: string | false): Promise<string> {
	const result = await build({
		configFile: false,
		logLevel: 'warn',
		build: {
			lib: { entry: serviceWorkerEntry, formats: ['iife'], name: 'canopyServiceWorker' },
			rollupOptions: { output: { entryFileNames: serviceWorkerFile } },
			outDir: outDir || 'build/client',
			write: outDir !== false,
			emptyOutDir: false,
			copyPublicDir: false,
			minify: true,
		},
	})
	const outputs = Array.isArray(result) ? result : [result]
	const chunk = outputs
		.flatMap((output) => ('output' in output ? output.output : []))
		.find((file) => file.type === 'chunk')
	return chunk && 'code' in chunk ? chunk.code : ''
}

/**
 * /sw.js: written beside the client build (server/app.ts serves it without long caching, so a
 * new version reaches browsers at their next check), and built on request in development.
 */
function serviceWorker(): Plugin {
	return {
		name: 'canopy:service-worker',
		async writeBundle(options) {
			if (this.environment.name !== 'client' || !options.dir) return
			await bundleServiceWorker(options.dir)
		},
		configureServer(server) {
			server.middlewares.use(`/${serviceWorkerFile}`, (_request, response, next) => {
				bundleServiceWorker(false).then((code) => {
					response.setHeader('Content-Type', 'text/javascript; charset=utf-8')
					response.setHeader('Cache-Control', 'no-cache')
					response.end(code)
				}, next)
			})
		},
	}
}

/**
 * Writes .br and .gz beside each client asset, so the server sends them as they are instead of
 * compressing on every request (and at a strength no per-request compressor could afford).
 */
function precompressAssets(): Plugin {
	return {
		name: 'canopy:precompress-assets',
		apply: 'build',
		writeBundle(options, bundle) {
			if (this.environment.name !== 'client' || !options.dir) return
			for (const file of Object.keys(bundle)) {
				if (!/\.(js|css|svg|json)$/.test(file)) continue
				const path = join(options.dir, file)
				const data = readFileSync(path)
				if (data.length < 1024) continue
				writeFileSync(
					`${path}.br`,
					brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
				)
				writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }))
			}
		},
	}
}

/**
 * Vite wraps every import() in its preload helper, which fetches the imported chunk's CSS (and,
 * unless build.modulePreload is off, its imports) beside it. Where there is nothing to fetch (the
 * notify control: no CSS of its own, and its imports are the page's) the wrapper only costs its
 * 0.9 KB of first-view JS on every public page (vitejs/vite#13952). This unwraps those calls and
 * drops the helper's import where nothing else uses it, before Vite writes the manifest React
 * Router reads, so no page preloads the helper either.
 */
function unwrapEmptyPreloads(): Plugin {
	const helperImport = /import\{\w+ as ([\w$]+)\}from"\.\/(preload-helper-[\w-]+\.js)";/
	const escapeDollar = (text: string) => text.replace(/[$]/g, '\\$')
	return {
		name: 'canopy:unwrap-empty-preloads',
		apply: 'build',
		enforce: 'post',
		generateBundle(_options, bundle) {
			if (this.environment.name !== 'client') return
			for (const chunk of Object.values(bundle)) {
				if (chunk.type !== 'chunk') continue
				const found = helperImport.exec(chunk.code)
				if (!found) continue
				const [statement, helper = '', helperFile = ''] = found
				// helper(()=>import(`./chunk.js`),__VITE_PRELOAD__) → import(`./chunk.js`), when the
				// imported chunk has no CSS: the marker would become [] (build.modulePreload: false).
				const wrapped = new RegExp(
					`(?<![\\w$.])${escapeDollar(helper)}\\(\\(\\)=>(import\\(\`\\./([^\`]+)\`\\)),__VITE_PRELOAD__\\)`,
					'g',
				)
				const directory = chunk.fileName.slice(0, chunk.fileName.lastIndexOf('/') + 1)
				const code = chunk.code.replace(wrapped, (call, load: string, file: string) => {
					const target = bundle[directory + file]
					const css = target?.type === 'chunk' ? target.viteMetadata?.importedCss.size : 1
					return css === 0 ? load : call
				})
				if (code === chunk.code) continue
				// The helper is only ever called as Vite wraps an import(): helper(()=>… or
				// helper(async()=>…. Any other call of that name is the minifier reusing it for a
				// local in an inner scope (for(let e of listeners)e()), which needs no import.
				const stillUsed = new RegExp(`(?<![\\w$.])${escapeDollar(helper)}\\((?:async)?\\(\\)=>`)
				if (stillUsed.test(code.replace(statement, ''))) chunk.code = code
				else {
					chunk.code = code.replace(statement, '')
					chunk.imports = chunk.imports.filter((name) => !name.endsWith(helperFile))
				}
			}
		},
	}
}

export default defineConfig({
	// Lingui's macros (compiled by Babel, on the files that use them) and the .po catalogues.
	plugins: [
		babel({ presets: [linguiTransformerBabelPreset()] }),
		lingui(),
		reactRouter(),
		precompressAssets(),
		serviceWorker(),
		unwrapEmptyPreloads(),
	],
	build: {
		// Assets are served with immutable caching by content hash; keep them small and separate.
		assetsInlineLimit: 0,
		// React Router preloads each route's modules itself (modulepreload links from its
		// manifest); code loaded on use by import() (the notify control, uPlot) needs nothing
		// more than what the page has, so Vite preloads nothing for it (see unwrapEmptyPreloads).
		modulePreload: false,
		rollupOptions: {
			output: {
				codeSplitting: {
					groups: [
						// React and React Router in one file, which every page loads: the default split
						// made four, each with its own gzip framing and import list (0.7 KB more).
						{
							name: 'framework',
							test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
						},
						// The small modules every page's root uses that staff routes share too: left
						// alone, each became a chunk of its own (0.1–0.4 KB, each with its own framing
						// and import list: the article page went from 11 files to 20 and 4 KB more).
						// Only modules every public page loads anyway belong here, so no page gets
						// code it does not use (bench page-weight checks the editor's stays out).
						{
							name: 'site',
							test: /app[\\/](components[\\/]ui[\\/](database-unavailable|use-menu-button|search-field)|features[\\/](remote-config[\\/](config-store|use-config|in-app-defaults)|site[\\/]site-settings|pages[\\/]page-addresses|search[\\/]search-limits)|lib[\\/](root-data|seo))\.tsx?$/,
						},
					],
				},
			},
		},
	},
})
