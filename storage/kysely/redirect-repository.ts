// Redirects (docs/decisions/025-redirects.md), for both databases; `recordMove` is what an
// article's rename writes in its own transaction. Every write is a change on the 'redirects'
// topic, so caches of every instance drop what they kept.
import type { Kysely, Transaction } from 'kysely'
import type { Redirect, RedirectRepository } from '../port/redirects.ts'
import type { ChangeHooks } from './change-repository.ts'
import { appendChange } from './change-repository.ts'
import { toIso } from './rows.ts'
import type { Database } from './schema.ts'

export const redirectsTopic = 'redirects'

function toRedirect(row: Record<string, unknown>): Redirect {
	return {
		from: String(row.from_path),
		to: String(row.to_path),
		status: Number(row.status) === 302 ? 302 : 301,
		automatic: Boolean(row.automatic),
		createdAt: toIso(row.created_at),
	}
}

/**
 * `from` now goes to `to`, and what led to `from` goes straight there: no chain is left. A
 * rename's `to` has content again, so a redirect from it is dropped; an admin's `to` that itself
 * redirects is followed to where it ends. Returns false, writing nothing, when that would lead
 * back to `from`.
 */
async function writeMove(
	trx: Transaction<Database>,
	move: { from: string; to: string; status: 301 | 302; automatic: boolean },
): Promise<boolean> {
	if (move.from === move.to) return false
	let to = move.to
	if (move.automatic) await trx.deleteFrom('redirects').where('from_path', '=', to).execute()
	else {
		const onward = await trx
			.selectFrom('redirects')
			.select('to_path')
			.where('from_path', '=', to)
			.executeTakeFirst()
		if (onward?.to_path === move.from) return false
		to = onward?.to_path ?? to
	}
	await trx.updateTable('redirects').set({ to_path: to }).where('to_path', '=', move.from).execute()
	// A redirect that now points at itself (renamed back to an old address) is gone.
	await trx.deleteFrom('redirects').whereRef('from_path', '=', 'to_path').execute()
	await trx
		.insertInto('redirects')
		.values({
			from_path: move.from,
			to_path: to,
			status: move.status,
			automatic: move.automatic,
			created_at: new Date().toISOString(),
		})
		.onConflict((oc) =>
			oc.column('from_path').doUpdateSet({
				to_path: to,
				status: move.status,
				automatic: move.automatic,
			}),
		)
		.execute()
	return true
}

/** A published article's or page's address changed: its old address answers 301 to the new. */
export async function recordMove(
	trx: Transaction<Database>,
	hooks: ChangeHooks,
	from: string,
	to: string,
) {
	if (await writeMove(trx, { from, to, status: 301, automatic: true }))
		return appendChange(trx, hooks, redirectsTopic, from, 'modified')
	return null
}

/** Thrown out of an import's transaction to undo it: the paths that would have made loops. */
class Loops extends Error {
	readonly loops: string[]
	constructor(loops: string[]) {
		super('loops')
		this.loops = loops
	}
}

export function createRedirectRepository(
	db: Kysely<Database>,
	hooks: ChangeHooks,
): RedirectRepository {
	return {
		async find(path) {
			const row = await db
				.selectFrom('redirects')
				.selectAll()
				.where('from_path', '=', path)
				.executeTakeFirst()
			return row && toRedirect(row)
		},
		async list() {
			const rows = await db.selectFrom('redirects').selectAll().orderBy('from_path').execute()
			return rows.map(toRedirect)
		},
		async put({ from, to, status }) {
			const change = await db.transaction().execute(async (trx) => {
				if (!(await writeMove(trx, { from, to, status, automatic: false }))) return null
				return appendChange(trx, hooks, redirectsTopic, from, 'modified')
			})
			if (!change) return { ok: false, reason: 'loop' }
			hooks.committed(change)
			return { ok: true }
		},
		async putMany(redirects) {
			try {
				const change = await db.transaction().execute(async (trx) => {
					const loops: string[] = []
					for (const { from, to, status, automatic = false } of redirects)
						if (!(await writeMove(trx, { from, to, status, automatic }))) loops.push(from)
					// Nothing of a file that would send readers round in circles is kept.
					if (loops.length > 0) throw new Loops(loops)
					return appendChange(trx, hooks, redirectsTopic, '*', 'modified')
				})
				hooks.committed(change)
				return { ok: true, count: redirects.length }
			} catch (error) {
				if (error instanceof Loops) return { ok: false, loops: error.loops }
				throw error
			}
		},
		async delete(from) {
			const change = await db.transaction().execute(async (trx) => {
				const result = await trx
					.deleteFrom('redirects')
					.where('from_path', '=', from)
					.executeTakeFirst()
				if (Number(result.numDeletedRows) === 0) return null
				return appendChange(trx, hooks, redirectsTopic, from, 'removed')
			})
			if (change) hooks.committed(change)
			return change !== null
		},
	}
}
