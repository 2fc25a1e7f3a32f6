// /admin/api: the admin API's reference for the staff, rendered from the same OpenAPI description
// /api/admin/openapi.json serves (app/features/api-keys/openapi.ts), so it is as current as the
// handlers. The description's own words are the developers' (English); the page around them is
// translated.
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from 'react-router'
import { adminApiDescription } from '#app/features/api-keys/openapi.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import stylesheet from '#app/styles/admin-api-reference.css?url'
import type { Route } from './+types/api-reference'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [
		{ title: i18n._(msg`Admin API reference · Canopy`) },
		{ name: 'robots', content: 'noindex' },
	]
}

type Schema = {
	type?: string | string[]
	enum?: unknown[]
	items?: Schema
	$ref?: string
	anyOf?: Schema[]
	description?: string
	properties?: Record<string, Schema>
	required?: string[]
	minLength?: number
	maxLength?: number
	maxItems?: number
	minimum?: number
	maximum?: number
	format?: string
	default?: unknown
}
type Parameter = {
	name: string
	in: string
	required?: boolean
	schema: Schema
	description?: string
}
type Operation = {
	summary: string
	parameters?: Parameter[]
	requestBody?: { content: Record<string, { schema: Schema }> }
	responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>
}

export function loader({ context }: Route.LoaderArgs) {
	const { siteUrl } = context.get(servicesContext)
	const description = adminApiDescription(siteUrl) as {
		paths: Record<string, Record<string, unknown>>
		webhooks: Record<string, { post: Operation & { description: string } }>
		components: { schemas: Record<string, Schema> }
	}
	const operations = Object.entries(description.paths).flatMap(([path, item]) => {
		const shared = (item.parameters ?? []) as Parameter[]
		return Object.entries(item)
			.filter(([method]) => ['get', 'post', 'put', 'delete'].includes(method))
			.map(([method, value]) => {
				const operation = value as Operation
				return {
					path,
					method,
					...operation,
					parameters: [...shared, ...(operation.parameters ?? [])],
				}
			})
	})
	const events = Object.entries(description.webhooks).map(([type, { post }]) => ({
		type,
		description: post.description,
		body: Object.values(post.requestBody?.content ?? {})[0]?.schema ?? {},
	}))
	return { operations, events, schemas: description.components.schemas }
}

/** A schema's type in a few words: "string ≤ 200", "array of string", "Article or null". */
function typeOf(schema: Schema): string {
	if (schema.$ref) return schema.$ref.split('/').pop() ?? ''
	if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ')
	if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ')
	const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any']
	return types
		.map((type) => {
			if (type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'any'}`
			if (type === 'string' && schema.format) return `string (${schema.format})`
			return type
		})
		.join(' or ')
}

/** A named schema links to its fields, further down the page. */
function SchemaName({ schema }: { schema: Schema }) {
	const name = typeOf(schema)
	return schema.$ref ? (
		<a href={`#schema-${name}`}>
			<code>{name}</code>
		</a>
	) : (
		<code>{name}</code>
	)
}

function limitsOf(schema: Schema): string {
	const limits: string[] = []
	if (schema.minLength) limits.push(`≥ ${schema.minLength} characters`)
	if (schema.maxLength) limits.push(`≤ ${schema.maxLength.toLocaleString('en')} characters`)
	if (schema.maxItems) limits.push(`≤ ${schema.maxItems} items`)
	if (schema.minimum !== undefined) limits.push(`≥ ${schema.minimum}`)
	if (schema.maximum !== undefined && schema.maximum < 2 ** 40) limits.push(`≤ ${schema.maximum}`)
	return limits.join(', ')
}

function Fields({ schema, caption }: { schema: Schema; caption: string }) {
	const required = new Set(schema.required ?? [])
	return (
		<div className="table-wrap">
			<table className="api-fields">
				<caption>{caption}</caption>
				<thead>
					<tr>
						<th scope="col">
							<Trans>Field</Trans>
						</th>
						<th scope="col">
							<Trans>Type</Trans>
						</th>
						<th scope="col">
							<Trans>Meaning</Trans>
						</th>
					</tr>
				</thead>
				<tbody>
					{Object.entries(schema.properties ?? {}).map(([name, field]) => (
						<tr key={name}>
							<th scope="row">
								<code>{name}</code>
								{required.has(name) ? (
									<span className="api-required">
										{' '}
										<Trans>required</Trans>
									</span>
								) : null}
							</th>
							<td>
								<code>{typeOf(field)}</code>
								{limitsOf(field) ? <span className="api-limits"> {limitsOf(field)}</span> : null}
							</td>
							<td>{field.description ?? ''}</td>
						</tr>
					))}
				</tbody>
			</table>
		</div>
	)
}

export default function ApiReference({ loaderData }: Route.ComponentProps) {
	const { operations, events, schemas } = loaderData
	const { t } = useLingui()
	const file = '/api/admin/openapi.json'
	return (
		<div className="api-reference">
			<h1>
				<Trans>Admin API reference</Trans>
			</h1>
			<p>
				<Trans>
					Every endpoint of the admin API, what it takes and what it answers. The same description,
					as OpenAPI 3.1 for tools and code generators, is at <a href={file}>{file}</a>. Scripts
					authenticate with a key from <Link to="/admin/api-keys">API keys</Link>.
				</Trans>
			</p>
			<nav aria-labelledby="api-contents">
				<h2 id="api-contents">
					<Trans>Endpoints</Trans>
				</h2>
				<ul>
					{operations.map((operation) => (
						<li key={`${operation.method} ${operation.path}`}>
							<a href={`#${operation.method}-${operation.path.replace(/\W+/g, '-')}`}>
								<code>
									{operation.method.toUpperCase()} {operation.path}
								</code>
							</a>{' '}
							{operation.summary}
						</li>
					))}
				</ul>
			</nav>
			{operations.map((operation) => {
				const body = Object.values(operation.requestBody?.content ?? {})[0]?.schema
				return (
					<section
						key={`${operation.method} ${operation.path}`}
						id={`${operation.method}-${operation.path.replace(/\W+/g, '-')}`}
						className="api-operation"
					>
						<h2>
							<code>
								{operation.method.toUpperCase()} {operation.path}
							</code>
						</h2>
						<p>{operation.summary}</p>
						{operation.parameters.length > 0 ? (
							<Fields
								caption={t`Parameters`}
								schema={{
									properties: Object.fromEntries(
										operation.parameters.map((parameter) => [
											`${parameter.name} (${parameter.in})`,
											{ ...parameter.schema, description: parameter.description },
										]),
									),
									required: operation.parameters
										.filter((parameter) => parameter.required)
										.map((parameter) => `${parameter.name} (${parameter.in})`),
								}}
							/>
						) : null}
						{body?.properties ? (
							<Fields caption={t`What the request sends (JSON)`} schema={body} />
						) : null}
						<h3>
							<Trans>Answers</Trans>
						</h3>
						<dl className="api-responses">
							{Object.entries(operation.responses).map(([status, response]) => (
								<div key={status}>
									<dt>
										<code>{status}</code>
									</dt>
									<dd>
										{response.description}{' '}
										{response.content ? (
											<SchemaName schema={Object.values(response.content)[0]?.schema ?? {}} />
										) : null}
									</dd>
								</div>
							))}
						</dl>
					</section>
				)
			})}
			<section id="webhooks" className="api-operation">
				<h2>
					<Trans>Webhooks</Trans>
				</h2>
				<p>
					<Trans>
						The events Canopy posts to the endpoints admins register in{' '}
						<Link to="/admin/webhooks">Webhooks</Link>, each signed by Standard Webhooks and tried
						again for a day. What each request sends:
					</Trans>
				</p>
				<dl className="api-responses">
					{events.map((event) => (
						<div key={event.type}>
							<dt>
								<code>{event.type}</code>
							</dt>
							<dd>
								{event.description} <SchemaName schema={event.body} />
							</dd>
						</div>
					))}
				</dl>
			</section>
			<h2>
				<Trans>What the answers hold</Trans>
			</h2>
			{Object.entries(schemas).map(([name, schema]) => (
				<section key={name} id={`schema-${name}`} className="api-schema">
					<h3>
						<code>{name}</code>
					</h3>
					<Fields caption={name} schema={schema} />
				</section>
			))}
		</div>
	)
}
