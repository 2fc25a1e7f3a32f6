// What an adapter gives the composition root: the storage port, and the query builder
// better-auth runs its own tables on. Only server/compose.ts hands the latter on (to sign-in);
// features reach accounts through the port (storage.accounts). Tests may read raw rows with it.
import type { Kysely } from 'kysely'
import type { Database } from './kysely/schema.ts'
import type { Dialect, Storage } from './port/storage.ts'

export interface AuthDatabase {
	db: Kysely<Database>
	type: Dialect
}

export interface StorageHandle extends Storage {
	readonly authDatabase: AuthDatabase
}
