import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { editorContext } from '#app/features/auth/session.server.ts'
import { rollBack, versionHistory } from '#app/features/remote-config/config-admin.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import configStyles from '#app/styles/admin-config.css?url'
import type { Route } from './+types/config-versions'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: configStyles }]

export function meta() {
	return [
		{ title: 'Versions · Configuration · Editor · Canopy' },
		{ name: 'robots', content: 'noindex' },
	]
}

function whole(text: string | null): number | undefined {
	return text && /^\d{1,15}$/.test(text) ? Number(text) : undefined
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const query = new URL(request.url).searchParams
	const before = whole(query.get('before'))
	const history = await versionHistory(context.get(servicesContext).storage, before)
	// Only numbers from the query string, never its text, reach the notice.
	return {
		...history,
		before,
		published: whole(query.get('published')),
		restoredFrom: whole(query.get('from')),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	let form: FormData
	try {
		form = await request.formData()
	} catch {
		throw data('The form arrived incomplete. Please send it again.', 400)
	}
	const result = await rollBack(
		context.get(servicesContext).storage,
		context.get(editorContext),
		form,
	)
	if (result.status === 'missing')
		return data({ ...result, message: 'There is no such version.' }, 404)
	if (result.status === 'stale') return data(result, 409)
	return redirect(`/admin/config/versions?published=${result.version}&from=${result.restoredFrom}`)
}

export default function ConfigVersions({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const { versions, currentId, olderBefore, before, published, restoredFrom } = loaderData
	return (
		<>
			<p>
				<Link to="/admin/config">Site switches</Link> ·{' '}
				<Link to="/admin/config/advanced">Every parameter</Link>
			</p>
			<h1>Configuration versions</h1>
			<p>Every version ever published, newest first. A rollback publishes an old one again.</p>
			{published ? (
				<p role="status" className="notice">
					Version {published} published: a copy of version {restoredFrom}. The site uses it from now
					on.
				</p>
			) : null}
			{actionData?.status === 'stale' ? (
				<div role="alert" className="form-error">
					<p>
						Nothing was rolled back: version {actionData.current} was published after this page
						loaded.{' '}
						<Link to="/admin/config/versions" reloadDocument>
							Reload the versions
						</Link>{' '}
						and choose again.
					</p>
				</div>
			) : null}
			{actionData?.status === 'missing' ? (
				<p role="alert" className="form-error">
					{actionData.message}
				</p>
			) : null}
			{versions.length === 0 ? (
				<p>Nothing published yet.</p>
			) : (
				<ol className="config-versions">
					{versions.map((version) => (
						<li key={version.id} aria-labelledby={`version-${version.id}`}>
							<h2 id={`version-${version.id}`}>
								Version {version.id}
								{version.id === currentId ? ' (current)' : ''}
							</h2>
							<p>
								Published by {version.createdByName} on <LocalTime iso={version.createdAt} time />
								{version.restoredFrom ? ` · restored from ${version.restoredFrom}` : ''}
							</p>
							<p>{version.summary}</p>
							{version.id < currentId ? (
								<details>
									<summary>
										Roll back to this version
										<span className="visually-hidden"> (version {version.id})</span>
									</summary>
									<Form method="post">
										<input type="hidden" name="version" value={version.id} />
										<input type="hidden" name="baseVersion" value={currentId} />
										<p>
											This publishes version {version.id}’s configuration again, as version{' '}
											{currentId + 1}. Every version since stays in this list.
										</p>
										<button type="submit" disabled={busy}>
											Roll back to version {version.id}
										</button>
									</Form>
								</details>
							) : null}
						</li>
					))}
				</ol>
			)}
			<nav aria-label="Pages of versions" className="config-pages">
				{before ? <Link to="/admin/config/versions">Newest versions</Link> : null}{' '}
				{olderBefore ? (
					<Link to={`/admin/config/versions?before=${olderBefore}`}>Older versions</Link>
				) : null}
			</nav>
		</>
	)
}
