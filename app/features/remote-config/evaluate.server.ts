// Which value each parameter takes for one visitor: the first of its conditions whose rules all
// match, else its server default, else its in-app default (docs/decisions/013-remote-config.md).
// A stored value the parameter's declaration no longer accepts (the code changed since it was
// published) is passed over, so it never reaches a page.
import { createHash } from 'node:crypto'
import type { DeviceClass } from '#storage/port/analytics.ts'
import type { ConditionRules, ConfigDocument } from '#storage/port/config.ts'
import {
	type ConfigValues,
	inAppDefaults,
	type ParameterKey,
	parameterKeys,
	parameters,
} from './parameters.ts'

export interface EvaluationContext {
	/** The visitor's config id (the canopy_config_id cookie); null: no rollout matches. */
	visitorId: string | null
	/** Primary subtag of the first Accept-Language entry, lower case; null when none. */
	language: string | null
	device: DeviceClass
	now: Date
}

/**
 * Where the visitor falls for this parameter, in [0, 100) in steps of 0.01: the same id always
 * lands in the same place, and each parameter's rollout picks its own visitors.
 */
export function rolloutBucket(visitorId: string, key: string): number {
	const digest = createHash('sha256').update(`${visitorId}:${key}`).digest()
	return (digest.readUInt32BE(0) % 10_000) / 100
}

export function rulesMatch(rules: ConditionRules, key: string, context: EvaluationContext) {
	if (rules.percent !== undefined) {
		if (context.visitorId === null) return false
		if (!(rolloutBucket(context.visitorId, key) < rules.percent)) return false
	}
	if (rules.languages && !(context.language && rules.languages.includes(context.language)))
		return false
	if (rules.devices && !rules.devices.includes(context.device)) return false
	const now = context.now.getTime()
	if (rules.from !== undefined && !(now >= Date.parse(rules.from))) return false
	if (rules.until !== undefined && !(now < Date.parse(rules.until))) return false
	return true
}

function accepted<Key extends ParameterKey>(key: Key, value: unknown) {
	const checked = parameters[key].schema.safeParse(value)
	return checked.success ? { value: checked.data as ConfigValues[Key] } : undefined
}

export function evaluateParameter<Key extends ParameterKey>(
	document: ConfigDocument | undefined,
	key: Key,
	context: EvaluationContext,
): ConfigValues[Key] {
	const setting = document?.parameters[key]
	if (setting) {
		for (const condition of setting.conditions) {
			if (!rulesMatch(condition.rules, key, context)) continue
			const found = accepted(key, condition.value)
			if (found) return found.value
		}
		if (setting.serverDefault !== undefined) {
			const found = accepted(key, setting.serverDefault)
			if (found) return found.value
		}
	}
	return inAppDefaults[key]
}

export function evaluate(
	document: ConfigDocument | undefined,
	context: EvaluationContext,
): ConfigValues {
	const values = Object.fromEntries(
		parameterKeys.map((key) => [key, evaluateParameter(document, key, context)]),
	) as ConfigValues
	// An announcement switched off for this visitor is kept for later, not sent to them: its
	// text may be one an editor is still preparing.
	if (!values.banner_enabled) {
		values.banner_message = inAppDefaults.banner_message
		values.banner_link = inAppDefaults.banner_link
	}
	return values
}

/**
 * The device class a request comes from, by its client hint or user agent (pages and
 * GET /api/config use this one function, so they agree).
 */
export function deviceClass(userAgent: string, mobileHint?: string | null): DeviceClass {
	if (mobileHint === '?1') return 'mobile'
	if (/Mobi|iPhone|iPod|Android.*Mobile/i.test(userAgent)) return 'mobile'
	if (/iPad|Tablet|Android/i.test(userAgent)) return 'tablet'
	return 'desktop'
}

/** The primary subtag of the first language a request accepts ('fr' from 'fr-CA,fr;q=0.9'). */
export function requestLanguage(acceptLanguage: string | null | undefined): string | null {
	const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim().toLowerCase() ?? ''
	const primary = first.split('-')[0] ?? ''
	return /^[a-z]{2,3}$/.test(primary) ? primary : null
}

export const configIdCookie = 'canopy_config_id'

/** The visitor's config id from a Cookie header: 22 URL-safe base64 characters, else null. */
export function configIdFrom(cookieHeader: string | null | undefined): string | null {
	if (!cookieHeader) return null
	for (const part of cookieHeader.split(';')) {
		const [name, value] = part.trim().split('=')
		if (name === configIdCookie && value && /^[A-Za-z0-9_-]{22}$/.test(value)) return value
	}
	return null
}

/** A request header by its lower-case name: from a fetch Request or from Node's request. */
export type HeaderReader = (name: string) => string | null | undefined

export const readHeaders =
	(headers: Headers): HeaderReader =>
	(name) =>
		headers.get(name)

/** A request's evaluation context, from its headers. */
export function contextFrom(header: HeaderReader, now: Date): EvaluationContext {
	return {
		visitorId: configIdFrom(header('cookie')),
		language: requestLanguage(header('accept-language')),
		device: deviceClass(header('user-agent') ?? '', header('sec-ch-ua-mobile')),
		now,
	}
}

/** A short stable name for a set of values: the ETag of GET /api/config, a page cache key part. */
export function valuesTag(version: number, values: ConfigValues): string {
	return createHash('sha256')
		.update(JSON.stringify([version, values]))
		.digest('base64url')
		.slice(0, 16)
}
