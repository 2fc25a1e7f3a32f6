// What a page shows when it failed because the site's database cannot be reached (a 503 from
// server/outage.ts): not the page's usual "not found" or "something went wrong", which would
// send a reader or an editor looking for a problem that is not theirs.
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { isRouteErrorResponse, useLocation } from 'react-router'

export const unavailableTitle = msg`Back in a moment`
export const unavailableText = msg`The site cannot reach its database just now, so this page cannot be shown. Nothing is wrong on your side, and it usually passes within a minute: please try again shortly.`

export function isDatabaseOutage(error: unknown): boolean {
	return isRouteErrorResponse(error) && error.status === 503
}

/** For an error boundary inside a page (the editor area's); the root boundary has its own. */
export function DatabaseUnavailable() {
	const { pathname, search } = useLocation()
	const { i18n } = useLingui()
	return (
		<>
			<h1>{i18n._(unavailableTitle)}</h1>
			<p>{i18n._(unavailableText)}</p>
			<p>
				{/* A full reload: the page is read again from the server. */}
				<Trans>
					<a href={`${pathname}${search}`}>Try this page again</a>.
				</Trans>
			</p>
		</>
	)
}
