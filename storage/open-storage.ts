// The one place an adapter is chosen.
import { join } from 'node:path'
import type { StorageRules } from './port/storage.ts'
import { openPostgresStorage } from './postgres/open-postgres.ts'
import { openSqliteStorage, type SqliteOptions } from './sqlite/open-sqlite.ts'
import type { StorageHandle } from './storage-handle.ts'

/** Where the database's comings and goings are told: the server's logger fits. */
export interface StorageLog {
	info(msg: string, fields?: Record<string, unknown>): void
	warn(msg: string, fields?: Record<string, unknown>): void
}

export function openStorage(
	config: { databaseUrl: string; dataDir: string },
	rules: StorageRules,
	logger?: StorageLog,
	sqlite: Omit<SqliteOptions, 'rules'> = {},
): StorageHandle {
	if (config.databaseUrl)
		return openPostgresStorage(config.databaseUrl, {
			rules,
			// One line when an outage begins and one when it ends; each request in between is a 503.
			onDown: (error) =>
				logger?.warn('database unreachable: answering 503 until it is back', {
					reason: error instanceof Error ? error.message : String(error),
				}),
			onUp: (downMs) => logger?.info('database reachable again', { downMs }),
		})
	return openSqliteStorage(join(config.dataDir, 'canopy.db'), { ...sqlite, rules })
}
