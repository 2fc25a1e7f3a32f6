// Where "Notify me of new articles" appears on /articles and article pages. The control's code
// (notify-control.tsx, notify.client.ts, 2.2 KB gzipped) is fetched by import() as the page
// hydrates rather than with the page's first-view JS (bench/page-weight.ts): until it arrives the
// server's rendering of it (its title, no button yet) stays in place. The slot keeps the
// control's height from the start, so nothing moves; without JavaScript it is hidden (app.css).
import { lazy, Suspense } from 'react'
import { useConfigValue } from '#app/features/remote-config/use-config.ts'

// A chunk that cannot be fetched (offline, or a new version deployed since the page loaded)
// leaves the slot empty rather than failing the page.
const NotifyControl = lazy<(props: { offered: boolean }) => React.ReactNode>(() =>
	import('./notify-control.tsx').catch(() => ({ default: () => null })),
)

export function NotifySlot() {
	// Editors may stop offering notices (remote configuration, push_prompt_enabled); a reader who
	// has them on still sees the control, to turn them off.
	const offered = useConfigValue('push_prompt_enabled')
	return (
		<div className={offered ? 'notify-slot' : 'notify-slot withdrawn'}>
			<Suspense>
				<NotifyControl offered={offered} />
			</Suspense>
		</div>
	)
}
