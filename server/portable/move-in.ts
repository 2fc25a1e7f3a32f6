// `npm run cli -- import:ghost <file>` and `import:wordpress <file>`: another system's export
// read and written into this site (docs/decisions/034-moving-in.md), with a line of progress on
// standard error and the report on standard output.
import { existsSync, statSync } from 'node:fs'
import { readGhostExport } from '#app/features/import/ghost-export.server.ts'
import { importContent } from '#app/features/import/import-content.server.ts'
import { reportText } from '#app/features/import/import-report.ts'
import { SourceFileError } from '#app/features/import/import-source.ts'
import { readWordPressExport } from '#app/features/import/wordpress-export.server.ts'
import type { Config } from '#server/env.ts'
import type { Storage } from '#storage/port/storage.ts'
import { CommandError } from './command-error.ts'

const readers = { ghost: readGhostExport, wordpress: readWordPressExport }

export async function moveInCommand(
	storage: Storage,
	config: Pick<Config, 'uploadMaxBytes' | 'uploadMaxPixels'>,
	format: 'ghost' | 'wordpress',
	file: string | undefined,
	options: { images?: string; dryRun: boolean },
): Promise<{ stdout: string; stderr?: string }> {
	const command = `import:${format}`
	if (!file) throw new CommandError(`${command} needs the path of the export file.`)
	if (!existsSync(file) || !statSync(file).isFile())
		throw new CommandError(`Cannot read ${file}: check the path.`)
	if (options.images && !(existsSync(options.images) && statSync(options.images).isDirectory()))
		throw new CommandError(
			`--images ${options.images} is not a folder: give the folder the export's images are in.`,
		)
	try {
		const source = await readers[format](file)
		let shown = 0
		const report = await importContent(storage, source, {
			dryRun: options.dryRun,
			imagesFolder: options.images ?? null,
			createdBy: null,
			maxImageBytes: config.uploadMaxBytes,
			maxImagePixels: config.uploadMaxPixels,
			progress({ phase, posts }) {
				if (phase === 'importing' && posts - shown >= 100 && process.stderr.isTTY) {
					shown = posts
					process.stderr.write(`\r${posts.toLocaleString('en')} posts read…`)
				}
			},
		})
		if (shown > 0) process.stderr.write('\r')
		return { stdout: reportText(report) }
	} catch (error) {
		if (error instanceof SourceFileError)
			throw new CommandError(`Nothing was imported. ${error.message}`)
		throw error
	}
}
