import { Trans } from '@lingui/react/macro'
import { data, Link } from 'react-router'

// Inside the guarded layout: a signed-in editor gets a real 404 page for an address the editor
// area does not have; anyone else is sent to sign in first, like everywhere under /admin.
export function loader() {
	return data(null, { status: 404 })
}

export default function AdminNotFound() {
	return (
		<>
			<h1>
				<Trans>Page not found</Trans>
			</h1>
			<p>
				<Trans>
					The editor area has no page at this address.{' '}
					<Link to="/admin">Go to the editor's home</Link>.
				</Trans>
			</p>
		</>
	)
}
