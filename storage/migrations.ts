// Plain SQL migrations, one folder per database, applied in name order and never edited once
// landed. See docs/decisions/002-plain-sql-migrations.md.
import { readdirSync, readFileSync } from 'node:fs'
import type { Dialect } from './port/storage.ts'

export interface Migration {
	name: string
	sql: string
}

export function loadMigrations(dialect: Dialect): Migration[] {
	const folder = new URL(`./migrations/${dialect}/`, import.meta.url)
	return readdirSync(folder)
		.filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
		.sort()
		.map((file) => ({
			name: file.replace(/\.sql$/, ''),
			sql: readFileSync(new URL(file, folder), 'utf8'),
		}))
}

export const migrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
  name TEXT PRIMARY KEY,
  applied_at TEXT NOT NULL
)`
