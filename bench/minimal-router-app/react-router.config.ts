// The smallest React Router 8 app that renders a page like Canopy's article: the framework's own
// cost per rendered page, measured beside Canopy by bench/ssr-throughput.ts, which builds it into
// build/ here (ignored by git, like Canopy's own).
import type { Config } from '@react-router/dev/config'

export default {
	ssr: true,
	appDirectory: 'app',
	buildDirectory: 'build',
} satisfies Config
