// The editors' side of remote configuration (/admin/config): what is published, in words; one
// parameter's form turned into the next version; the history and its rollbacks. Every publish
// names the version it was built on, so an editor never overwrites a version they have not seen.
import type { Editor } from '#app/features/auth/editor-session.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import type { ConfigDocument, ConfigVersion } from '#storage/port/config.ts'
import type { Storage } from '#storage/port/storage.ts'
import { parseConfigDocument } from './config.schema.ts'
import {
	applyIntent,
	fieldsToSetting,
	formErrors,
	type ParameterFields,
	readFields,
	readIntent,
	settingToFields,
} from './config-form.ts'
import {
	describeCondition,
	describeServerDefault,
	describeValue,
	summarizeChange,
} from './describe.ts'
import { type ParameterKey, parameterKeys, parameters } from './parameters.ts'

export const versionsPerPage = 20

export function isParameterKey(key: string | undefined): key is ParameterKey {
	return key !== undefined && (parameterKeys as string[]).includes(key)
}

/** Who published a version and when, for the pages. */
function versionInfo(version: ConfigVersion) {
	const { id, createdAt, createdByName, summary, restoredFrom } = version
	return { id, createdAt, createdByName, summary, restoredFrom }
}

export async function configOverview(storage: Storage) {
	const current = await storage.config.current()
	const document: ConfigDocument = current?.document ?? { parameters: {} }
	return {
		version: current ? versionInfo(current) : null,
		parameters: parameterKeys.map((key) => {
			const setting = document.parameters[key]
			return {
				key,
				type: parameters[key].type,
				description: parameters[key].description,
				inAppDefault: describeValue(key, parameters[key].defaultValue),
				serverDefault: describeServerDefault(key, setting),
				conditions: (setting?.conditions ?? []).map((condition) =>
					describeCondition(key, condition),
				),
			}
		}),
	}
}

export async function parameterForm(storage: Storage, key: ParameterKey) {
	const current = await storage.config.current()
	return {
		baseVersion: current?.id ?? 0,
		fields: settingToFields(key, current?.document.parameters[key]),
	}
}

export type ParameterFormResult =
	/** Added, removed or moved a condition: the form again, nothing published. */
	| { status: 'edited'; fields: ParameterFields; baseVersion: number; errors: FieldErrors }
	| { status: 'invalid'; fields: ParameterFields; baseVersion: number; errors: FieldErrors }
	| { status: 'stale'; fields: ParameterFields; baseVersion: number; current: number }
	| { status: 'published'; version: number }

function readBaseVersion(form: FormData): number {
	const text = form.get('baseVersion')
	return typeof text === 'string' && /^\d{1,15}$/.test(text) ? Number(text) : -1
}

/** One post of the parameter's form: an edit of the form, or a publish of the next version. */
export async function submitParameterForm(
	storage: Storage,
	editor: Editor,
	key: ParameterKey,
	form: FormData,
): Promise<ParameterFormResult> {
	const fields = readFields(form)
	const baseVersion = readBaseVersion(form)
	const intent = readIntent(form)
	if (intent.kind !== 'publish')
		return { status: 'edited', fields: applyIntent(key, fields, intent), baseVersion, errors: {} }

	const base = await storage.config.current()
	const currentId = base?.id ?? 0
	if (baseVersion !== currentId) return { status: 'stale', fields, baseVersion, current: currentId }

	const { setting, errors: unreadable } = fieldsToSetting(key, fields)
	const before = base?.document.parameters[key]
	const document: ConfigDocument = {
		parameters: { ...base?.document.parameters, [key]: setting },
	}
	const parsed = parseConfigDocument(document)
	if (!parsed.success || Object.keys(unreadable).length > 0) {
		const errors = {
			...(parsed.success ? {} : formErrors(key, fieldErrors(parsed.error))),
			...unreadable,
		}
		return { status: 'invalid', fields, baseVersion, errors }
	}
	const published = await storage.config.publish(
		{
			document: parsed.data,
			baseVersion,
			createdBy: editor.id,
			createdByName: editor.name,
			summary: summarizeChange(key, before, setting),
		},
		new Date(),
	)
	if (!published.ok) return { status: 'stale', fields, baseVersion, current: published.current }
	return { status: 'published', version: published.version.id }
}

export async function versionHistory(storage: Storage, before: number | undefined) {
	const current = await storage.config.current()
	const page = await storage.config.list({ limit: versionsPerPage + 1, before })
	return {
		currentId: current?.id ?? 0,
		versions: page.slice(0, versionsPerPage).map(versionInfo),
		olderBefore: page.length > versionsPerPage ? page[versionsPerPage - 1]?.id : undefined,
	}
}

export type RollbackResult =
	| { status: 'missing' }
	| { status: 'stale'; current: number }
	| { status: 'published'; version: number; restoredFrom: number }

/** Publishes a copy of an old version's document as the next version. */
export async function rollBack(
	storage: Storage,
	editor: Editor,
	form: FormData,
): Promise<RollbackResult> {
	const text = form.get('version')
	const old =
		typeof text === 'string' && /^\d{1,15}$/.test(text)
			? await storage.config.get(Number(text))
			: undefined
	if (!old) return { status: 'missing' }
	const published = await storage.config.publish(
		{
			document: old.document,
			baseVersion: readBaseVersion(form),
			createdBy: editor.id,
			createdByName: editor.name,
			summary: `Rolled back to version ${old.id}`,
			restoredFrom: old.id,
		},
		new Date(),
	)
	if (!published.ok) return { status: 'stale', current: published.current }
	return { status: 'published', version: published.version.id, restoredFrom: old.id }
}

/** The current version for the CLI (config:show): who published it, then its document. */
export async function showCurrentConfig(storage: Storage): Promise<string> {
	const current = await storage.config.current()
	if (!current) return 'No configuration published yet: the site uses the in-app defaults.'
	const restored = current.restoredFrom ? `, restored from ${current.restoredFrom}` : ''
	return [
		`Version ${current.id}, published ${current.createdAt} by ${current.createdByName}${restored}: ${current.summary}`,
		JSON.stringify(current.document, null, 2),
	].join('\n')
}
