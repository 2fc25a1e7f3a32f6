// Starts the page's remote-config client: loaded by import() after hydration (config-store.ts).

import { createRemoteConfig, type RemoteConfig } from './config.client.ts'
import { ensureConfigId } from './config-id.client.ts'
import type { ConfigValues, EvaluatedConfig } from './parameters.ts'

export function startClient(
	server: EvaluatedConfig,
	onActivate: (values: ConfigValues) => void,
): RemoteConfig {
	ensureConfigId()
	const remote = createRemoteConfig()
	// A fresh page load holds the current version, evaluated for this visitor: no fetch is due
	// for the next 12 hours unless the live stream says a newer one was published.
	remote.seed(server)
	remote.subscribe(onActivate)
	void remote.fetch()
	return remote
}
