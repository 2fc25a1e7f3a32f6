// `npm run cli -- export`: the whole site as one portable file (export-format.ts), read from one
// snapshot of the database, so an export made while the site serves is still consistent.
import type { PortableSection } from '#storage/port/portable.ts'
import type { Storage } from '#storage/port/storage.ts'
import { credentialSections, headerLine, rowLine, sections } from './export-format.ts'

/**
 * Settings that belong to one installation and are made again by the next: the keys that sign
 * sessions and contact forms, the daily salts of visitor hashes (kept out of every copy, as
 * they are deleted once their day is over), which process added the sample articles, and what
 * each running instance says it runs with (server/instance-agreement.ts), and how far the
 * cleaning of older images got (server/jobs/upload-cleaning.ts).
 * Everything else an editor or Canopy stored moves.
 */
const installationSecrets = ['auth.secret', 'contact.secret', 'seed.addedBy']
// uploads.cleaning.*: how far the cleaning of this database's older images got; an import cleans
// every image it reads itself.
const installationPrefixes = ['privacy.salt.', 'instance.', 'uploads.cleaning.']

export function isInstallationSecret(key: string): boolean {
	return (
		installationSecrets.includes(key) ||
		installationPrefixes.some((prefix) => key.startsWith(prefix))
	)
}

export type ExportCounts = Record<PortableSection, number> & { imageBytes: number }

/** Text goes out in pieces of about this size, so writing costs few system calls. */
const chunkSize = 1 << 20

export async function exportSite(
	storage: Storage,
	write: (chunk: string) => Promise<void>,
	options: { withPasswords: boolean },
): Promise<ExportCounts> {
	let pending = ''
	const emit = async (text: string) => {
		pending += text
		if (pending.length >= chunkSize) {
			const chunk = pending
			pending = ''
			await write(chunk)
		}
	}
	const counts = Object.fromEntries(
		[...sections, 'imageBytes'].map((key) => [key, 0]),
	) as ExportCounts

	await storage.portable.read(async (reader) => {
		await emit(`${headerLine(options.withPasswords)}\n`)
		for (const [position, section] of sections.entries()) {
			const end = position === sections.length - 1 ? '}' : ','
			const included = options.withPasswords || !credentialSections.includes(section)
			let previous: string | undefined
			if (included) {
				for await (const row of reader.rows(section)) {
					if (section === 'settings' && isInstallationSecret((row as { key: string }).key)) continue
					if (section === 'uploads') counts.imageBytes += (row as { size: number }).size
					// A row's comma is written once the next row is known to exist.
					await emit(previous === undefined ? `"${section}":[\n` : `${previous},\n`)
					previous = rowLine(section, row)
					counts[section]++
				}
			}
			await emit(previous === undefined ? `"${section}":[]${end}\n` : `${previous}\n]${end}\n`)
		}
	})
	if (pending) await write(pending)
	return counts
}
