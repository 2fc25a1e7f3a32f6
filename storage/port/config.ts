// Remote configuration: published versions of the configuration document.
import type { DeviceClass } from './analytics.ts'

/** All must hold for the condition to match (docs/decisions/013-remote-config.md). */
export interface ConditionRules {
	/** In the first `percent` % of visitors: 0 < percent ≤ 100, two decimals at most. */
	percent?: number
	/** Primary language subtags, lower case: ['fr'] matches fr, fr-FR and fr-CA. */
	languages?: string[]
	devices?: DeviceClass[]
	/** ISO 8601 instants: from inclusive, until exclusive. */
	from?: string
	until?: string
}

export interface ConditionalValue {
	rules: ConditionRules
	value: unknown
}

export interface ParameterSetting {
	/** Absent: the in-app default. */
	serverDefault?: unknown
	/** Ordered: the first whose rules all match gives the value. */
	conditions: ConditionalValue[]
}

export interface ConfigDocument {
	parameters: Partial<Record<string, ParameterSetting>>
}

/** One published configuration (docs/decisions/013-remote-config.md). */
export interface ConfigVersion {
	/** 1, 2, 3 … in publishing order. */
	id: number
	document: ConfigDocument
	createdAt: string
	/** The publisher's user id; null: the CLI, or an account since deleted. */
	createdBy: string | null
	createdByName: string
	/** What changed, in words, made by the publisher. */
	summary: string
	/** Set by a rollback: the version whose document this copies. */
	restoredFrom: number | null
}

export interface ConfigPublish {
	document: ConfigDocument
	/** The version the document was built on; 0: none published yet. */
	baseVersion: number
	createdBy: string | null
	createdByName: string
	summary: string
	restoredFrom?: number | null
}

export interface ConfigRepository {
	current(): Promise<ConfigVersion | undefined>
	get(id: number): Promise<ConfigVersion | undefined>
	/** Newest first; `before`: only versions older than this id. */
	list(options: { limit: number; before?: number }): Promise<ConfigVersion[]>
	/**
	 * Publishes `document` as the next version if the current one is still `baseVersion`
	 * (0: none yet); otherwise { ok: false, current }. In the same transaction it appends a
	 * change (topic 'config', entity id = the new version's id, kind 'modified'), so every
	 * instance's page cache empties and open pages hear of it. Of concurrent publishes on one
	 * base, exactly one succeeds.
	 */
	publish(
		input: ConfigPublish,
		now: Date,
	): Promise<{ ok: true; version: ConfigVersion } | { ok: false; current: number }>
}
