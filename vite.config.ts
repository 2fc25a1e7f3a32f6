import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

export default defineConfig({
	plugins: [reactRouter()],
	build: {
		// Assets are served with immutable caching by content hash; keep them small and separate.
		assetsInlineLimit: 0,
	},
})
