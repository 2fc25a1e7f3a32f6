import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { reactRouter } from '@react-router/dev/vite'
import { defineConfig, type Plugin } from 'vite'

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

export default defineConfig({
	plugins: [reactRouter(), precompressAssets()],
	build: {
		// Assets are served with immutable caching by content hash; keep them small and separate.
		assetsInlineLimit: 0,
	},
})
