// Every portable section as a table (portable-site.ts, portable-audience.ts), and the query
// that reads one in primary-key order on either database.
import type { PortableSection } from '../port/portable.ts'
import type { Dialect } from '../port/storage.ts'
import { audienceTables } from './portable-audience.ts'
import type { Tables } from './portable-rows.ts'
import { siteTables } from './portable-site.ts'

export const sectionTables: Tables = { ...siteTables, ...audienceTables }

/** The section's full query: PostgreSQL orders text by its collation unless told otherwise. */
export function orderedSelect(section: PortableSection, dialect: Dialect): string {
	const spec = sectionTables[section]
	const collate = dialect === 'postgres' ? ' COLLATE "C"' : ''
	const order = spec.order.map(({ column, text }) => `${column}${text ? collate : ''}`).join(', ')
	const select = typeof spec.select === 'string' ? spec.select : spec.select(dialect)
	return `${select} ORDER BY ${order}`
}
