// Staff accounts in better-auth's tables (0002_auth): the reads and the transactional writes
// Canopy makes itself. Sign-in, sessions and one-time links stay better-auth's.
import type { Kysely, Transaction } from 'kysely'
import type { AccountRecord, AccountRepository } from '../port/accounts.ts'
import type { Dialect } from '../port/storage.ts'
import type { Database } from './schema.ts'

const columns = ['id', 'name', 'email', 'role', 'deactivatedAt'] as const

/** PostgreSQL gives its timestamptz column as a Date, SQLite the text written: both as ISO text. */
function toRecord(row: AccountRecord | { deactivatedAt: unknown }): AccountRecord {
	const { deactivatedAt } = row as { deactivatedAt: string | Date | null }
	return {
		...(row as AccountRecord),
		deactivatedAt: deactivatedAt === null ? null : new Date(deactivatedAt).toISOString(),
	}
}

export function createAccountRepository(db: Kysely<Database>, dialect: Dialect): AccountRepository {
	/** The active admins' ids, their rows locked until the transaction ends (PostgreSQL; SQLite's writes are serial anyway). */
	async function activeAdmins(trx: Transaction<Database>): Promise<string[]> {
		const query = trx
			.selectFrom('user')
			.select('id')
			.where('role', '=', 'admin')
			.where('deactivatedAt', 'is', null)
		return (await (dialect === 'postgres' ? query.forUpdate() : query).execute()).map(
			(row) => row.id,
		)
	}

	return {
		async list() {
			const rows = await db
				.selectFrom('user')
				.select(columns)
				.orderBy('name')
				.orderBy('email')
				.execute()
			return rows.map(toRecord)
		},

		async find(id) {
			const row = await db
				.selectFrom('user')
				.select(columns)
				.where('id', '=', id)
				.executeTakeFirst()
			return row && toRecord(row)
		},

		async create(account, credential, now) {
			const at = now.toISOString()
			await db.transaction().execute(async (trx) => {
				await trx
					.insertInto('user')
					.values({
						...account,
						emailVerified: false,
						image: null,
						createdAt: at,
						updatedAt: at,
						deactivatedAt: null,
					})
					.execute()
				await trx
					.insertInto('account')
					.values({
						id: credential.id,
						accountId: account.id,
						providerId: 'credential',
						userId: account.id,
						password: credential.passwordHash,
						createdAt: at,
						updatedAt: at,
					})
					.execute()
			})
		},

		async setInterfaceLanguage(userId, language, now) {
			const result = await db
				.updateTable('user')
				.set({ interfaceLanguage: language, updatedAt: now.toISOString() })
				.where('id', '=', userId)
				.executeTakeFirst()
			return Number(result.numUpdatedRows) > 0
		},

		async setPassword(userId, passwordHash, now) {
			await db.transaction().execute(async (trx) => {
				await trx
					.updateTable('account')
					.set({ password: passwordHash, updatedAt: now.toISOString() })
					.where('userId', '=', userId)
					.where('providerId', '=', 'credential')
					.execute()
				await trx.deleteFrom('session').where('userId', '=', userId).execute()
			})
		},

		async change(userId, change, allow, now) {
			return db.transaction().execute(async (trx) => {
				const admins = await activeAdmins(trx)
				const row = await trx
					.selectFrom('user')
					.select(columns)
					.where('id', '=', userId)
					.executeTakeFirst()
				if (!row) return { ok: false, reason: 'missing' } as const
				const account = toRecord(row)
				const refusal = allow(account, admins)
				if (refusal) return { ok: false, reason: 'refused', message: refusal } as const
				const at = now.toISOString()
				if ('role' in change) {
					await trx
						.updateTable('user')
						.set({ role: change.role, updatedAt: at })
						.where('id', '=', userId)
						.execute()
					return { ok: true, account: { ...account, role: change.role } } as const
				}
				const deactivatedAt = change.active ? null : at
				await trx
					.updateTable('user')
					.set({ deactivatedAt, updatedAt: at })
					.where('id', '=', userId)
					.execute()
				if (!change.active) await trx.deleteFrom('session').where('userId', '=', userId).execute()
				return { ok: true, account: { ...account, deactivatedAt } } as const
			})
		},
	}
}
