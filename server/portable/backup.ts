// `npm run cli -- backup`: SQLite's consistent copy while the site serves (VACUUM INTO); on
// PostgreSQL, how to make one with pg_dump instead.
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Storage } from '#storage/port/storage.ts'

/** A backup that was not made, and why, in words the operator can act on. */
export class BackupError extends Error {}

/** 2026-05-01T09:00:00.000Z → 20260501T090000Z: sorts by time, no characters a shell minds. */
function stamp(now: Date): string {
	return now
		.toISOString()
		.replace(/[-:]/g, '')
		.replace(/\.\d+Z$/, 'Z')
}

export function defaultBackupFile(dataDir: string, now = new Date()): string {
	return join(dataDir, 'backups', `canopy-${stamp(now)}.db`)
}

/** The pg_dump line for this DATABASE_URL, its password left out (pg_dump asks, or reads PGPASSWORD). */
export function pgDumpAdvice(databaseUrl: string, now = new Date()): string {
	const url = new URL(databaseUrl)
	url.password = ''
	// A search_path chooses where Canopy's tables are; pg_dump would otherwise dump every schema.
	const schema = /search_path=([^\s,]+)/.exec(url.searchParams.get('options') ?? '')?.[1]
	const command = [
		'pg_dump --format=custom',
		`--file=canopy-${stamp(now)}.dump`,
		...(schema ? [`--schema=${schema}`] : []),
		`'${url.toString().replaceAll("'", "'\\''")}'`,
	].join(' ')
	return [
		"Canopy is on PostgreSQL here: back it up with PostgreSQL's own tool, pg_dump, which makes a consistent copy while the site serves. For example:",
		'',
		`  ${command}`,
		'',
		'pg_dump asks for the password, or reads it from PGPASSWORD or ~/.pgpass. Restore the dump with pg_restore into a new database.',
		'To move the site to another database instead, use npm run cli -- export.',
	].join('\n')
}

export async function backupDatabase(
	storage: Storage,
	file: string,
): Promise<{ file: string; bytes: number }> {
	if (existsSync(file))
		throw new BackupError(
			`${file} already exists: choose another name, or move that file away first.`,
		)
	mkdirSync(dirname(file), { recursive: true })
	let outcome: 'done' | 'unsupported'
	try {
		outcome = await storage.portable.backup(file)
	} catch (error) {
		if ((error as { code?: string }).code === 'EEXIST')
			throw new BackupError(
				`${file} already exists: choose another name, or move that file away first.`,
			)
		throw error
	}
	if (outcome === 'unsupported')
		throw new BackupError('This database cannot be backed up by Canopy.')
	return { file, bytes: statSync(file).size }
}
