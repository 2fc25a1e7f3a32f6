// The analytics dashboard (being built: see analytics-export.ts and analytics-now.ts beside it).
import type { Route } from './+types/analytics'

export function meta(_: Route.MetaArgs) {
	return [{ title: 'Analytics · Editor · Canopy' }, { name: 'robots', content: 'noindex' }]
}

export default function Analytics() {
	return <h1>Analytics</h1>
}
