// The site's switches in plain words (/admin/config): the announcement bar (on or off, its text,
// its link, who sees it) and the other parameters as the settings they are. Each is a view of the
// same configuration document the parameter editor changes (/admin/config/:key): a publish here
// makes the next version, with the rules the plain view does not show kept as they are.
import type { Editor } from '#app/features/auth/editor-session.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import type { DeviceClass } from '#storage/port/analytics.ts'
import type { ConditionRules, ConfigDocument, ParameterSetting } from '#storage/port/config.ts'
import type { Storage } from '#storage/port/storage.ts'
import { parseConfigDocument } from './config.schema.ts'
import { fieldsToSetting, formErrors, valueToText } from './config-form.ts'
import { summarizeChange } from './describe.ts'
import { deviceClasses, type ParameterKey, parameters } from './parameters.ts'

/** The announcement's audience: off, every reader, or readers the rules pick. */
export type BannerAudience = 'off' | 'everyone' | 'some'

export interface SwitchFields {
	bannerAudience: BannerAudience
	bannerMessage: string
	bannerLink: string
	/** "Some readers": a share of them, their languages, their devices (each optional). */
	bannerPercent: string
	bannerLanguages: string
	bannerDevices: DeviceClass[]
	homeLatestCount: string
	articlesPageSize: string
	pushPromptEnabled: boolean
	contactFormEnabled: boolean
}

/** The plain form's fields and the parameter each sets. */
const plainValues = {
	bannerMessage: 'banner_message',
	bannerLink: 'banner_link',
	homeLatestCount: 'home_latest_count',
	articlesPageSize: 'articles_page_size',
	pushPromptEnabled: 'push_prompt_enabled',
	contactFormEnabled: 'contact_form_enabled',
} as const satisfies Partial<Record<keyof SwitchFields, ParameterKey>>

type PlainField = keyof typeof plainValues

/** Where a switch also has rules for some visitors that only the parameter editor shows. */
export type AdvancedRules = Partial<Record<ParameterKey, number>>

function effective(key: ParameterKey, setting: ParameterSetting | undefined): unknown {
	return setting?.serverDefault === undefined ? parameters[key].defaultValue : setting.serverDefault
}

/**
 * Whether the announcement's switch is one the plain view can show: unset, a plain on or off, or
 * off but on for readers matched by one condition of percent, languages and devices.
 */
function bannerAudienceOf(
	setting: ParameterSetting | undefined,
): { audience: BannerAudience; rules: ConditionRules } | null {
	const on = effective('banner_enabled', setting) === true
	const conditions = setting?.conditions ?? []
	if (conditions.length === 0) return { audience: on ? 'everyone' : 'off', rules: {} }
	const [only] = conditions
	if (conditions.length > 1 || on || !only || only.value !== true) return null
	if (only.rules.from || only.rules.until) return null
	return { audience: 'some', rules: only.rules }
}

export async function siteSwitches(storage: Storage) {
	const current = await storage.config.current()
	const settings = current?.document.parameters ?? {}
	const audience = bannerAudienceOf(settings.banner_enabled)
	const text = (key: ParameterKey) => valueToText(key, effective(key, settings[key]))
	const fields: SwitchFields = {
		bannerAudience: audience?.audience ?? 'some',
		bannerMessage: text('banner_message'),
		bannerLink: text('banner_link'),
		bannerPercent: audience?.rules.percent === undefined ? '' : String(audience.rules.percent),
		bannerLanguages: audience?.rules.languages?.join(', ') ?? '',
		bannerDevices: audience?.rules.devices ?? [],
		homeLatestCount: text('home_latest_count'),
		articlesPageSize: text('articles_page_size'),
		pushPromptEnabled: effective('push_prompt_enabled', settings.push_prompt_enabled) === true,
		contactFormEnabled: effective('contact_form_enabled', settings.contact_form_enabled) === true,
	}
	const advanced: AdvancedRules = {}
	for (const key of Object.values(plainValues)) {
		const count = settings[key]?.conditions.length ?? 0
		if (count > 0) advanced[key] = count
	}
	if (!audience) advanced.banner_enabled = settings.banner_enabled?.conditions.length ?? 0
	return {
		baseVersion: current?.id ?? 0,
		version: current
			? { id: current.id, createdAt: current.createdAt, by: current.createdByName }
			: null,
		fields,
		advanced,
	}
}

export function readSwitchFields(form: FormData): SwitchFields {
	const text = (name: string) => {
		const value = form.get(name)
		return typeof value === 'string' ? value : ''
	}
	const audience = text('bannerAudience')
	return {
		bannerAudience: audience === 'off' || audience === 'some' ? audience : 'everyone',
		bannerMessage: text('bannerMessage').trim(),
		bannerLink: text('bannerLink').trim(),
		bannerPercent: text('bannerPercent'),
		bannerLanguages: text('bannerLanguages'),
		bannerDevices: deviceClasses.filter((device) => form.getAll('bannerDevices').includes(device)),
		homeLatestCount: text('homeLatestCount'),
		articlesPageSize: text('articlesPageSize'),
		// A box not ticked is not posted: the whole form always is, so absence is off.
		pushPromptEnabled: form.get('pushPromptEnabled') === 'on',
		contactFormEnabled: form.get('contactFormEnabled') === 'on',
	}
}

export type SwitchesResult =
	| { status: 'invalid'; fields: SwitchFields; errors: FieldErrors }
	| { status: 'stale'; fields: SwitchFields; current: number }
	| { status: 'unchanged' }
	| { status: 'published'; version: number }

/** The plain form's field for a message the parameter form would give `key`'s `name`. */
function plainName(key: ParameterKey, name: string): string {
	if (key === 'banner_enabled') {
		const rule = /^conditions\.0\.(percent|languages|devices)$/.exec(name)?.[1]
		if (rule) return `banner${rule[0]?.toUpperCase()}${rule.slice(1)}`
		return 'bannerAudience'
	}
	const field = Object.entries(plainValues).find(([, parameter]) => parameter === key)?.[0]
	return field ?? 'form'
}

/** Publishes what the plain form says as the next version, when it changes anything. */
export async function publishSwitches(
	storage: Storage,
	editor: Editor,
	form: FormData,
): Promise<SwitchesResult> {
	const fields = readSwitchFields(form)
	const baseText = form.get('baseVersion')
	const baseVersion =
		typeof baseText === 'string' && /^\d{1,15}$/.test(baseText) ? Number(baseText) : -1
	const base = await storage.config.current()
	const currentId = base?.id ?? 0
	if (baseVersion !== currentId) return { status: 'stale', fields, current: currentId }
	const before = base?.document.parameters ?? {}
	const next: Partial<Record<ParameterKey, ParameterSetting>> = {}
	const errors: FieldErrors = {}
	const collect = (key: ParameterKey, found: FieldErrors) => {
		for (const [name, messages] of Object.entries(found)) {
			const plain = plainName(key, name)
			errors[plain] = [...(errors[plain] ?? []), ...messages]
		}
	}

	for (const [field, key] of Object.entries(plainValues) as [PlainField, ParameterKey][]) {
		const posted = fields[field]
		const text = typeof posted === 'boolean' ? String(posted) : posted
		if (text === valueToText(key, effective(key, before[key]))) continue
		// Only the value everyone gets changes: rules set in the parameter editor stay.
		const { setting, errors: unreadable } = fieldsToSetting(key, {
			useServerDefault: true,
			serverDefault: text,
			conditions: [],
		})
		collect(key, unreadable)
		next[key] = { ...setting, conditions: before[key]?.conditions ?? [] }
	}

	const shown = bannerAudienceOf(before.banner_enabled)
	const rules =
		fields.bannerAudience === 'some'
			? [
					{
						percent: fields.bannerPercent,
						languages: fields.bannerLanguages,
						devices: fields.bannerDevices,
						from: '',
						until: '',
						value: 'true',
					},
				]
			: []
	// An audience set in the parameter editor is shown there, and kept unless changed here.
	const audienceChanged =
		shown === null
			? fields.bannerAudience !== 'some'
			: fields.bannerAudience !== shown.audience ||
				(fields.bannerAudience === 'some' &&
					(fields.bannerPercent !== (shown.rules.percent?.toString() ?? '') ||
						fields.bannerLanguages !== (shown.rules.languages?.join(', ') ?? '') ||
						fields.bannerDevices.join() !== (shown.rules.devices ?? []).join()))
	if (audienceChanged) {
		if (fields.bannerAudience === 'some' && !rules[0]?.percent.trim()) {
			if (!rules[0]?.languages.trim() && fields.bannerDevices.length === 0)
				errors.bannerAudience = [
					'Say which readers see it: a share of them, their languages or their devices. Or choose everyone.',
				]
		}
		const { setting, errors: unreadable } = fieldsToSetting('banner_enabled', {
			useServerDefault: true,
			serverDefault: String(fields.bannerAudience === 'everyone'),
			conditions: rules,
		})
		collect('banner_enabled', unreadable)
		next.banner_enabled = setting
	}

	const changed = Object.keys(next) as ParameterKey[]
	if (changed.length === 0 && Object.keys(errors).length === 0) return { status: 'unchanged' }
	const document: ConfigDocument = { parameters: { ...before, ...next } }
	const parsed = parseConfigDocument(document)
	if (!parsed.success) {
		const all = fieldErrors(parsed.error)
		for (const key of changed) {
			const own = Object.entries(all).filter(([path]) => path.startsWith(`parameters.${key}.`))
			collect(key, formErrors(key, Object.fromEntries(own)))
		}
	}
	if (!parsed.success || Object.keys(errors).length > 0)
		return { status: 'invalid', fields, errors }
	const published = await storage.config.publish(
		{
			document: parsed.data,
			baseVersion,
			createdBy: editor.id,
			createdByName: editor.name,
			summary: changed
				.map((key) => summarizeChange(key, before[key], next[key] ?? { conditions: [] }))
				.join('; '),
		},
		new Date(),
	)
	if (!published.ok) return { status: 'stale', fields, current: published.current }
	return { status: 'published', version: published.version.id }
}
