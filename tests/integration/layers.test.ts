// The dependency rule (docs/decisions/022-one-way-layers.md) is enforced by `npm run lint`:
// Biome's noRestrictedImports, per folder, in biome.json. This shows the check failing on each
// kind of forbidden import, and passing on the allowed ones, by linting files laid out as the
// project is, in a temporary copy with the project's own biome.json.
import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const biome = join(root, 'node_modules/.bin/biome')
const copies: string[] = []
afterAll(() => {
	for (const copy of copies) rmSync(copy, { recursive: true, force: true })
})

/** Lints one file at `path` (as the project lays it out); the rule's messages, none when allowed. */
async function lint(path: string, source: string): Promise<string[]> {
	const copy = mkdtempSync(join(tmpdir(), 'canopy-layers-'))
	copies.push(copy)
	copyFileSync(join(root, 'biome.json'), join(copy, 'biome.json'))
	mkdirSync(dirname(join(copy, path)), { recursive: true })
	writeFileSync(join(copy, path), source)
	const output = await new Promise<string>((resolve) =>
		execFile(
			biome,
			['lint', '--max-diagnostics=50', path],
			{ cwd: copy },
			(_error, stdout, stderr) => resolve(stdout + stderr),
		),
	)
	return output
		.split('\n')
		.filter((line) => line.includes('one-way-layers'))
		.map((line) => line.trim())
}

describe('the dependency rule', () => {
	it('refuses storage/ importing app/, server/ or tests/, by alias or by relative path', async () => {
		const messages = await lint(
			'storage/kysely/example.ts',
			[
				"import type { Logger } from '#app/lib/logger.ts'",
				"import { loadConfig } from '#server/env.ts'",
				"import { makeUser } from '#tests/fixtures/admin-api.ts'",
				"import { outageMessage } from '../../server/outage.ts'",
				"import type { Storage } from '../port/storage.ts'",
				'export const used = [loadConfig, makeUser, outageMessage] as unknown as [Logger, Storage]',
			].join('\n'),
		)
		expect(messages).toHaveLength(4)
		expect(messages[0]).toContain('storage/ is the bottom layer')
	})

	it('refuses app/ importing server/, a storage adapter, Kysely or a driver; the port is allowed', async () => {
		const messages = await lint(
			'app/features/articles/example.server.ts',
			[
				"import type { Logger } from '#server/logger.ts'",
				"import { openStorage } from '#storage/open-storage.ts'",
				"import type { Database } from '#storage/kysely/schema.ts'",
				"import { Kysely } from 'kysely'",
				"import pg from 'pg'",
				"import { DatabaseSync } from 'node:sqlite'",
				"import { securityHeaders } from '../../../server/security.ts'",
				"import type { Storage } from '#storage/port/storage.ts'",
				"import { storageOutage } from '#storage/port/unavailable.ts'",
				'export const used = [openStorage, Kysely, pg, DatabaseSync, securityHeaders, storageOutage] as unknown as [Logger, Database, Storage]',
			].join('\n'),
		)
		expect(messages).toHaveLength(7)
		expect(messages[0]).toContain('app/ imports the storage port only')
	})

	it('lets server/ and tests import every layer', async () => {
		const source = [
			"import type { Logger } from '#app/lib/logger.ts'",
			"import { openStorage } from '#storage/open-storage.ts'",
			'export const used = [openStorage] as unknown as Logger',
		].join('\n')
		expect(await lint('server/example.ts', source)).toEqual([])
		expect(await lint('app/features/articles/example.test.ts', source)).toEqual([])
		expect(await lint('storage/example.contract.test.ts', source)).toEqual([])
	})
})
