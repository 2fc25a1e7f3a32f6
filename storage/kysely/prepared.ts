// Statements the PostgreSQL pool keeps prepared on each connection (storage/postgres/
// guarded-pool.ts): a hot statement whose text never changes starts with this mark and is then
// planned once per connection instead of on every run. A read whose IN list varies in length is
// one text per length; the pool stops preparing new texts past a hundred. Only for statements
// that name their columns: a kept plan of `SELECT *` fails once a migration changes the table.
import { sql } from 'kysely'

export const preparedMark = '/* prepared */'

// The mark as a Kysely select query's modifyFront: the text then starts "select", then the mark.
export const prepared = sql.raw(preparedMark)
