// What the HTTP application is made of: given by the composition root (server/compose.ts) to
// server/app.ts and to the server's route table (server/routes.ts).
import type { ServerBuild } from 'react-router'
import type { CollectOptions } from '#app/features/analytics/collect.server.ts'
import type { ScreenViewBuffer } from '#app/features/analytics/ingest.server.ts'
import type { Auth } from '#app/features/auth/auth.server.ts'
import type { MoveInStarter } from '#app/features/import/move-in-starter.ts'
import type { SubscriptionOptions } from '#app/features/push/subscriptions.server.ts'
import type { ConfigService } from '#app/features/remote-config/config.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { Config } from './env.ts'
import type { LiveBroker } from './live/broker.ts'
import type { StreamOptions } from './live/streams.ts'
import type { Metrics } from './metrics.ts'

export interface AppDependencies {
	config: Config
	storage: Storage
	broker: LiveBroker
	logger: Logger
	/** The built server bundle, or (in development) a function that loads the current one. */
	build: ServerBuild | (() => Promise<ServerBuild>)
	mode: 'production' | 'development'
	/** build/client in production; in development Vite serves files itself. */
	clientDir?: string
	pageCache?: boolean
	stream?: Partial<StreamOptions>
	auth: Auth
	/** The mail outbox job's wake (none: mail goes at the job's next tick, if it runs). */
	wakeMailOutbox?: () => void
	/** The image-versions job's wake (none: versions are made at the job's next tick, if it runs). */
	wakeImageVersions?: () => void
	/** Where POST /api/collect queues screen views for their batched write. */
	screenViews: ScreenViewBuffer
	/** The collect endpoint's clock and rate limit (tests). */
	collect?: Partial<CollectOptions>
	/** The public half of the VAPID pair (app/features/push/vapid-keys.server.ts). */
	vapidPublicKey: string
	/** The remote configuration this instance serves (app/features/remote-config/). */
	remoteConfig: ConfigService
	push?: PushSettings
	/** Prometheus metrics, when METRICS_TOKEN is set (server/metrics.ts); none: no /metrics. */
	metrics?: Metrics
	/** Runs the moving-in page's imports (none: a runner of the app's own). */
	moveIn?: MoveInStarter
}

export interface PushSettings {
	/**
	 * Accepts subscriptions whose push service is on this machine (loopback addresses and
	 * localhost), which are otherwise refused as a server-side request forgery. For the local
	 * push service tests run; deliberately not an environment variable, so no deployment can
	 * turn it on.
	 */
	allowLoopbackPushServices?: boolean
	/** The subscription endpoint's clock and daily cap (tests). */
	subscriptions?: Partial<Pick<SubscriptionOptions, 'now' | 'perDay'>>
}
