import { Link } from 'react-router'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { configOverview } from '#app/features/remote-config/config-admin.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import configStyles from '#app/styles/admin-config.css?url'
import type { Route } from './+types/config-advanced'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: configStyles }]

export function meta() {
	return [
		{ title: 'Every parameter · Configuration · Editor · Canopy' },
		{ name: 'robots', content: 'noindex' },
	]
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const overview = await configOverview(context.get(servicesContext).storage)
	// Only a number from the query string, never its text, reaches the notice.
	const published = Number(new URL(request.url).searchParams.get('published'))
	return { ...overview, published: Number.isSafeInteger(published) ? published : 0 }
}

// Every parameter by its key, with its defaults and the conditions that give some visitors
// another value: the view for admins who want it (the site switches, /admin/config, say the same
// in plain words).
export default function ConfigParameters({ loaderData }: Route.ComponentProps) {
	const { version, parameters, published } = loaderData
	return (
		<>
			<p className="breadcrumb">
				<Link to="/admin/config">Site switches</Link>
			</p>
			<h1>Every parameter</h1>
			<p>
				The configuration as the site reads it: each parameter by its key, the value the code uses
				when nothing is set (in-app default), the value published for everyone (server default) and
				conditions that give some visitors another value. Each publish makes a new version; the site
				uses the newest.
			</p>
			{published > 0 ? (
				<p role="status" className="notice">
					Version {published} published. The site uses it from now on.
				</p>
			) : null}
			<p className="config-version">
				{version ? (
					<>
						Current version: <strong>version {version.id}</strong>, published by{' '}
						{version.createdByName} on <LocalTime iso={version.createdAt} time />.
					</>
				) : (
					'Nothing published yet: the site uses the in-app defaults.'
				)}{' '}
				<Link to="/admin/config/versions">All versions</Link>
			</p>
			<ul className="config-parameters">
				{parameters.map((parameter) => (
					<li key={parameter.key}>
						<h2>
							<code>{parameter.key}</code>
						</h2>
						<p>{parameter.description}</p>
						<dl>
							<dt>Type</dt>
							<dd>{parameter.type}</dd>
							<dt>In-app default</dt>
							<dd>{parameter.inAppDefault}</dd>
							<dt>Server default</dt>
							<dd>{parameter.serverDefault}</dd>
							<dt>Conditions</dt>
							<dd>
								{parameter.conditions.length > 0 ? (
									<ol>
										{parameter.conditions.map((condition, index) => (
											// biome-ignore lint/suspicious/noArrayIndexKey: conditions are identified by their place
											<li key={index}>{condition}</li>
										))}
									</ol>
								) : (
									'none'
								)}
							</dd>
						</dl>
						<Link to={`/admin/config/${parameter.key}`}>
							Edit<span className="visually-hidden"> {parameter.key}</span>
						</Link>
					</li>
				))}
			</ul>
		</>
	)
}
