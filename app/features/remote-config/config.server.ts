// The published configuration as this instance serves it: the current version's document, read
// once and again whenever a new version is published (on any instance: the change feed carries
// topic `config`), and the values it gives each request.
import type { Logger } from '#app/lib/logger.ts'
import type { Change } from '#storage/port/changes.ts'
import type { ConfigDocument } from '#storage/port/config.ts'
import type { Storage } from '#storage/port/storage.ts'
import {
	contextFrom,
	evaluate,
	type HeaderReader,
	readHeaders,
	valuesTag,
} from './evaluate.server.ts'
import type { ConfigValues, EvaluatedConfig } from './parameters.ts'

export const configTopic = 'config'

export interface ConfigService {
	/** The values for the request that sent these headers (waits for a reload under way). */
	forRequest(header: HeaderReader, now?: Date): Promise<EvaluatedConfig>
	/** The values a page's loader renders with. */
	valuesFor(request: Request): Promise<ConfigValues>
	/**
	 * The name of the values these headers get, for the page cache's key, without waiting;
	 * undefined while a new version is being read (the page is then rendered, not cached).
	 */
	variant(header: HeaderReader, now?: Date): string | undefined
	/** The change feed's listener: reads the document again when a version was published. */
	onChanges(changes: readonly Change[]): void
}

interface Loaded {
	version: number
	document: ConfigDocument | undefined
	/**
	 * When no parameter has a condition, every visitor gets the same values: worked out once,
	 * so the page cache's key costs nothing per request (the usual case).
	 */
	same?: { values: ConfigValues; tag: string }
}

const anyone = { visitorId: null, language: null, device: 'desktop', now: new Date(0) } as const

function prepare(version: number, document: ConfigDocument | undefined): Loaded {
	const conditional = Object.values(document?.parameters ?? {}).some(
		(setting) => (setting?.conditions.length ?? 0) > 0,
	)
	if (conditional) return { version, document }
	const values = evaluate(document, anyone)
	return { version, document, same: { values, tag: valuesTag(version, values) } }
}

export async function createConfigService(
	storage: Storage,
	logger: Logger,
): Promise<ConfigService> {
	const read = async (): Promise<Loaded> => {
		const current = await storage.config.current()
		return prepare(current?.id ?? 0, current?.document)
	}
	let loaded = await read()
	let reading: Promise<Loaded> | undefined

	function reload() {
		const next = read()
		reading = next
		next.then(
			(fresh) => {
				// A slower, older read never replaces a newer one.
				if (fresh.version >= loaded.version) loaded = fresh
				if (reading === next) reading = undefined
			},
			(error) => {
				logger.warn('config: could not read the published version', { error })
				if (reading === next) reading = undefined
			},
		)
		return next
	}

	async function forRequest(header: HeaderReader, now = new Date()): Promise<EvaluatedConfig> {
		if (reading) await reading.catch(() => {})
		const { version, document, same } = loaded
		return { version, values: same?.values ?? evaluate(document, contextFrom(header, now)) }
	}

	return {
		forRequest,
		async valuesFor(request) {
			return (await forRequest(readHeaders(request.headers))).values
		},
		variant(header, now = new Date()) {
			if (reading) return undefined
			if (loaded.same) return loaded.same.tag
			const values = evaluate(loaded.document, contextFrom(header, now))
			return valuesTag(loaded.version, values)
		},
		onChanges(changes) {
			if (changes.some((change) => change.topic === configTopic)) void reload()
		},
	}
}
