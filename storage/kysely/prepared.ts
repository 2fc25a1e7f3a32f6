// Statements the PostgreSQL pool keeps prepared on each connection (storage/postgres/
// guarded-pool.ts): a hot statement whose text never changes starts with this mark and is then
// planned once per connection instead of on every run. Only for statements that name their
// columns: a kept plan of `SELECT *` fails once a migration changes the table.
export const preparedMark = '/* prepared */'
