import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { editorContext } from '#app/features/auth/session.server.ts'
import { rollBack, versionHistory } from '#app/features/remote-config/config-admin.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import configStyles from '#app/styles/admin-config.css?url'
import type { Route } from './+types/config-versions'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: configStyles }]

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [
		{ title: i18n._(msg`Versions · Configuration · Editor · Canopy`) },
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
		const i18n = await requestI18n(request, context)
		throw data(i18n._(msg`The form arrived incomplete. Please send it again.`), 400)
	}
	const result = await rollBack(
		context.get(servicesContext).storage,
		context.get(editorContext),
		form,
	)
	if (result.status === 'missing') {
		const i18n = await requestI18n(request, context)
		return data({ ...result, message: i18n._(msg`There is no such version.`) }, 404)
	}
	if (result.status === 'stale') return data(result, 409)
	return redirect(`/admin/config/versions?published=${result.version}&from=${result.restoredFrom}`)
}

/** Why nothing was rolled back: a version came out after the page was loaded. */
function StaleNotice({ current }: { current: number }) {
	return (
		<Trans>
			Nothing was rolled back: version {current} was published after this page loaded.{' '}
			<Link to="/admin/config/versions" reloadDocument>
				Reload the versions
			</Link>{' '}
			and choose again.
		</Trans>
	)
}

export default function ConfigVersions({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state === 'submitting'
	const { versions, currentId, olderBefore, before, published, restoredFrom } = loaderData
	const { t } = useLingui()
	const nextId = currentId + 1
	return (
		<>
			<p>
				<Link to="/admin/config">
					<Trans>Site switches</Trans>
				</Link>{' '}
				·{' '}
				<Link to="/admin/config/advanced">
					<Trans>Every parameter</Trans>
				</Link>
			</p>
			<h1>
				<Trans>Configuration versions</Trans>
			</h1>
			<p>
				<Trans>
					Every version ever published, newest first. A rollback publishes an old one again.
				</Trans>
			</p>
			{published ? (
				<p role="status" className="notice">
					<Trans>
						Version {published} published: a copy of version {restoredFrom}. The site uses it from
						now on.
					</Trans>
				</p>
			) : null}
			{actionData?.status === 'stale' ? (
				<div role="alert" className="form-error">
					<p>
						<StaleNotice current={actionData.current} />
					</p>
				</div>
			) : null}
			{actionData?.status === 'missing' ? (
				<p role="alert" className="form-error">
					{actionData.message}
				</p>
			) : null}
			{versions.length === 0 ? (
				<p>
					<Trans>Nothing published yet.</Trans>
				</p>
			) : (
				<ol className="config-versions">
					{versions.map((version) => {
						const { id, createdByName, createdAt } = version
						const restoredFromVersion = version.restoredFrom
						return (
							<li key={id} aria-labelledby={`version-${id}`}>
								<h2 id={`version-${id}`}>
									{id === currentId ? (
										<Trans>Version {id} (current)</Trans>
									) : (
										<Trans>Version {id}</Trans>
									)}
								</h2>
								<p>
									{restoredFromVersion ? (
										<Trans>
											Published by {createdByName} on <LocalTime iso={createdAt} time /> · restored
											from {restoredFromVersion}
										</Trans>
									) : (
										<Trans>
											Published by {createdByName} on <LocalTime iso={createdAt} time />
										</Trans>
									)}
								</p>
								<p>{version.summary}</p>
								{id < currentId ? (
									<details>
										<summary>
											<Trans>
												Roll back to this version
												<span className="visually-hidden"> (version {id})</span>
											</Trans>
										</summary>
										<Form method="post">
											<input type="hidden" name="version" value={id} />
											<input type="hidden" name="baseVersion" value={currentId} />
											<p>
												<Trans>
													This publishes version {id}’s configuration again, as version {nextId}.
													Every version since stays in this list.
												</Trans>
											</p>
											<button type="submit" disabled={busy}>
												<Trans>Roll back to version {id}</Trans>
											</button>
										</Form>
									</details>
								) : null}
							</li>
						)
					})}
				</ol>
			)}
			<nav aria-label={t`Pages of versions`} className="config-pages">
				{before ? (
					<Link to="/admin/config/versions">
						<Trans>Newest versions</Trans>
					</Link>
				) : null}{' '}
				{olderBefore ? (
					<Link to={`/admin/config/versions?before=${olderBefore}`}>
						<Trans>Older versions</Trans>
					</Link>
				) : null}
			</nav>
		</>
	)
}
