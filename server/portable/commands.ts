// The CLI's export, import and backup commands: files and streams around the domain code.
import { createReadStream, existsSync, linkSync, rmSync, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import type { Config } from '#server/env.ts'
import { sampleSlugs } from '#server/seed.ts'
import type { Storage } from '#storage/port/storage.ts'
import { BackupError, backupDatabase, defaultBackupFile, pgDumpAdvice } from './backup.ts'
import { CommandError } from './command-error.ts'
import { ExportFileError } from './export-format.ts'
import { type ExportCounts, exportSite } from './export-site.ts'
import { type ImportCounts, ImportRefused, importSite } from './import-site.ts'
import { readExport } from './read-export.ts'

const plural = (n: number, one: string, many = `${one}s`) =>
	`${n.toLocaleString('en')} ${n === 1 ? one : many}`

function megabytes(bytes: number): string {
	return `${(bytes / 1_000_000).toFixed(1)} MB`
}

function summary(counts: ExportCounts | ImportCounts, passwords: string): string {
	return [
		`${plural(counts.users, 'account')}${counts.users ? ` (${passwords})` : ''}`,
		plural(counts.articles, 'article'),
		`${plural(counts.uploads, 'image')}${'imageBytes' in counts ? ` (${megabytes(counts.imageBytes)})` : ''}`,
		plural(counts.contactMessages, 'message'),
		plural(counts.configVersions, 'configuration version'),
		plural(counts.settings, 'setting'),
		plural(counts.pushSubscriptions, 'push subscription'),
		plural(counts.analyticsViews, 'screen view'),
		plural(counts.analyticsDaily, 'daily total'),
	].join(', ')
}

function writeError(file: string, error: unknown): CommandError {
	return new CommandError(`Cannot write ${file}: ${(error as Error).message}`)
}

/** To a file (never replacing one, never leaving half a file) or, for no file or "-", stdout. */
export async function exportCommand(
	storage: Storage,
	file: string | undefined,
	withPasswords: boolean,
): Promise<{ stdout?: string; stderr?: string }> {
	const passwords = withPasswords ? 'with passwords and API keys' : 'without passwords'
	if (!file || file === '-') {
		// A reader that stops early (| head) closes the pipe: say so, rather than crash.
		const ignore = () => {}
		process.stdout.on('error', ignore)
		try {
			const counts = await exportSite(
				storage,
				(chunk) =>
					new Promise((resolve, reject) =>
						process.stdout.write(chunk, (error) => (error ? reject(error) : resolve())),
					),
				{ withPasswords },
			)
			return { stderr: `Exported ${summary(counts, passwords)}.` }
		} catch (error) {
			if ((error as { code?: string }).code !== 'EPIPE') throw error
			throw new CommandError(
				'The export stopped: standard output was closed before it was all written.',
			)
		} finally {
			process.stdout.off('error', ignore)
		}
	}
	if (existsSync(file))
		throw new CommandError(
			`${file} already exists: choose another name, or move that file away first.`,
		)
	const partial = `${file}.partial-${process.pid}`
	const handle = await open(partial, 'wx').catch((error) => {
		throw writeError(file, error)
	})
	try {
		const counts = await exportSite(storage, async (chunk) => void (await handle.write(chunk)), {
			withPasswords,
		})
		await handle.sync()
		await handle.close()
		// A link, not a rename: it fails if the name was taken meanwhile, rather than replace it.
		try {
			linkSync(partial, file)
		} catch (error) {
			throw writeError(file, error)
		}
		return {
			stdout: `Exported ${summary(counts, passwords)} to ${file} (${megabytes(statSync(file).size)}).`,
		}
	} finally {
		await handle.close().catch(() => {})
		rmSync(partial, { force: true })
	}
}

export async function importCommand(
	storage: Storage,
	file: string | undefined,
): Promise<{ stdout: string }> {
	if (!file)
		throw new CommandError('import needs the path of an export file (or - for standard input).')
	if (file !== '-' && !existsSync(file))
		throw new CommandError(`There is no file ${file}: check the path.`)
	const input = file === '-' ? process.stdin : createReadStream(file)
	let counts: ImportCounts
	try {
		counts = await importSite(storage, readExport(input), { sampleSlugs: sampleSlugs() })
	} catch (error) {
		if (error instanceof ExportFileError || error instanceof ImportRefused)
			throw new CommandError(error.message)
		throw error
	} finally {
		if (input !== process.stdin) input.destroy()
	}
	const where = storage.dialect === 'postgres' ? 'the PostgreSQL database' : 'the SQLite database'
	const lines = [
		`Imported ${summary(counts, counts.withoutPassword ? 'without passwords' : 'with passwords')} into ${where}.`,
	]
	if (counts.withoutPassword > 0)
		lines.push(
			`${plural(counts.withoutPassword, 'account has', 'accounts have')} no password yet: each person sets one from a reset link, which "Forgot your password?" on the sign-in page mails (when SMTP_URL is set), or which npm run cli -- user:reset-link --email <address> prints.`,
		)
	lines.push(
		'Start Canopy on this database now, or restart it if it was running, so it uses the imported settings.',
	)
	return { stdout: lines.join('\n') }
}

export async function backupCommand(
	storage: Storage,
	file: string | undefined,
	config: Pick<Config, 'dataDir' | 'databaseUrl'>,
): Promise<{ stdout: string }> {
	if (storage.dialect === 'postgres') throw new CommandError(pgDumpAdvice(config.databaseUrl))
	try {
		const made = await backupDatabase(storage, file ?? defaultBackupFile(config.dataDir))
		return {
			stdout: `Backed up the database to ${made.file} (${megabytes(made.bytes)}). To restore it, stop Canopy, move canopy.db, canopy.db-wal and canopy.db-shm out of ${config.dataDir}, and copy the backup there as canopy.db.`,
		}
	} catch (error) {
		if (error instanceof BackupError) throw new CommandError(error.message)
		throw error
	}
}
