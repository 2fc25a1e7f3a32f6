// The one place an adapter is chosen.
import { join } from 'node:path'
import { openPostgresStorage } from './postgres/open-postgres.ts'
import { openSqliteStorage } from './sqlite/open-sqlite.ts'
import type { Storage } from './types.ts'

export function openStorage(config: { databaseUrl: string; dataDir: string }): Storage {
	if (config.databaseUrl) return openPostgresStorage(config.databaseUrl)
	return openSqliteStorage(join(config.dataDir, 'canopy.db'))
}
