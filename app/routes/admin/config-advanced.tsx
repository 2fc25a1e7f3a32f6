import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from 'react-router'
import { schemaMessage } from '#app/components/ui/field.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { configOverview } from '#app/features/remote-config/config-admin.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import configStyles from '#app/styles/admin-config.css?url'
import type { Route } from './+types/config-advanced'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: configStyles }]

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [
		{ title: i18n._(msg`Every parameter · Configuration · Editor · Canopy`) },
		{ name: 'robots', content: 'noindex' },
	]
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const overview = await configOverview(context.get(servicesContext).storage)
	// Only a number from the query string, never its text, reaches the notice.
	const published = Number(new URL(request.url).searchParams.get('published'))
	return { ...overview, published: Number.isSafeInteger(published) ? published : 0 }
}

/** The version the site uses: who published it, and when. */
function CurrentVersion({ id, by, createdAt }: { id: number; by: string; createdAt: string }) {
	return (
		<Trans>
			Current version: <strong>version {id}</strong>, published by {by} on{' '}
			<LocalTime iso={createdAt} time />.
		</Trans>
	)
}

function EditLink({ parameterKey }: { parameterKey: string }) {
	return (
		<Link to={`/admin/config/${parameterKey}`}>
			<Trans>
				Edit<span className="visually-hidden"> {parameterKey}</span>
			</Trans>
		</Link>
	)
}

// Every parameter by its key, with its defaults and the conditions that give some visitors
// another value: the view for admins who want it (the site switches, /admin/config, say the same
// in plain words).
export default function ConfigParameters({ loaderData }: Route.ComponentProps) {
	const { version, parameters, published } = loaderData
	const { i18n } = useLingui()
	return (
		<>
			<p className="breadcrumb">
				<Link to="/admin/config">
					<Trans>Site switches</Trans>
				</Link>
			</p>
			<h1>
				<Trans>Every parameter</Trans>
			</h1>
			<p>
				<Trans>
					The configuration as the site reads it: each parameter by its key, the value the code uses
					when nothing is set (in-app default), the value published for everyone (server default)
					and conditions that give some visitors another value. Each publish makes a new version;
					the site uses the newest.
				</Trans>
			</p>
			{published > 0 ? (
				<p role="status" className="notice">
					<Trans>Version {published} published. The site uses it from now on.</Trans>
				</p>
			) : null}
			<p className="config-version">
				{version ? (
					<CurrentVersion
						id={version.id}
						by={version.createdByName}
						createdAt={version.createdAt}
					/>
				) : (
					<Trans>Nothing published yet: the site uses the in-app defaults.</Trans>
				)}{' '}
				<Link to="/admin/config/versions">
					<Trans>All versions</Trans>
				</Link>
			</p>
			<ul className="config-parameters">
				{parameters.map((parameter) => (
					<li key={parameter.key}>
						<h2>
							<code>{parameter.key}</code>
						</h2>
						{/* Written in parameters.ts (English), in the interface's language where registered. */}
						<p>{schemaMessage(i18n, parameter.description)}</p>
						<dl>
							<dt>
								<Trans>Type</Trans>
							</dt>
							<dd>{parameter.type}</dd>
							<dt>
								<Trans>In-app default</Trans>
							</dt>
							<dd>{parameter.inAppDefault}</dd>
							<dt>
								<Trans>Server default</Trans>
							</dt>
							<dd>{parameter.serverDefault}</dd>
							<dt>
								<Trans>Conditions</Trans>
							</dt>
							<dd>
								{parameter.conditions.length > 0 ? (
									<ol>
										{parameter.conditions.map((condition, index) => (
											// biome-ignore lint/suspicious/noArrayIndexKey: conditions are identified by their place
											<li key={index}>{condition}</li>
										))}
									</ol>
								) : (
									<Trans>none</Trans>
								)}
							</dd>
						</dl>
						<EditLink parameterKey={parameter.key} />
					</li>
				))}
			</ul>
		</>
	)
}
