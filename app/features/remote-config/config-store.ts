// The part of remote config every page carries (kept tiny: it is first-view JS): the values a
// later activation made active, and the calls that reach the client (config.client.ts), which is
// fetched by import() once the page has hydrated.
import type { RemoteConfig } from './config.client.ts'
import { inAppDefaults } from './in-app-defaults.ts'
import type { ConfigValues, EvaluatedConfig } from './parameters.ts'

/** Undefined until an activation changes a value: until then pages show what the server rendered. */
let active: ConfigValues | undefined
const listeners = new Set<() => void>()

export function subscribeActive(listener: () => void): () => void {
	listeners.add(listener)
	return () => {
		listeners.delete(listener)
	}
}

export const activeValues = (): ConfigValues | undefined => active

function setActive(values: ConfigValues): void {
	active = values
	for (const listener of listeners) listener()
}

/** The config the root loader evaluated; the in-app defaults when it has none. */
export function rootConfig(rootData: unknown): EvaluatedConfig {
	const config = (rootData as { config?: EvaluatedConfig } | null | undefined)?.config
	return config ?? { version: 0, values: inAppDefaults }
}

// Kept apart from its use so the build sees a bare import(): one it need not wrap in a preload
// helper (vite.config.ts, unwrapEmptyPreloads).
const loadClient = () => import('./start.client.ts')

let client: Promise<RemoteConfig | undefined> | undefined

/** Once per page load, after hydration: the values the server rendered with seed the client. */
export function startRemoteConfig(server: EvaluatedConfig): Promise<RemoteConfig | undefined> {
	// A chunk that cannot be fetched (offline, or a new deploy) leaves the rendered values.
	client ??= loadClient().then(
		(module) => module?.startClient(server, setActive),
		() => undefined,
	)
	return client
}

/** At a safe point (a route change): values fetched meanwhile take effect. */
export function activateConfig(): void {
	void client?.then((remote) => remote?.activate())
}

/** The live stream heard of a published version: one newer than this page's is fetched at once. */
export function configVersionHeard(version: number): void {
	void client?.then((remote) => {
		if (remote && version > remote.knownVersion()) return remote.fetch({ force: true })
	})
}
