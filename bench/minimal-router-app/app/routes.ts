import { index, layout, route } from '@react-router/dev/routes'

// As many routes as Canopy has (MINIMAL_APP_ROUTES, counted from its build by the bench), most
// of them under one layout as Canopy's staff area is: React Router matches a request against
// every route ranked before the one it finds, three times per page.
const fillers = Math.max(0, Number(process.env.MINIMAL_APP_ROUTES ?? 0) - 3)
const staff = Array.from({ length: fillers }, (_, i) =>
	route(`section-${i}/:id?`, 'routes/filler.tsx', { id: `filler-${i}` }),
)

export default [
	index('routes/filler.tsx', { id: 'home' }),
	route('articles/:slug', 'routes/article.tsx'),
	layout('routes/staff.tsx', [route('staff', 'routes/filler.tsx', { id: 'staff' }), ...staff]),
]
