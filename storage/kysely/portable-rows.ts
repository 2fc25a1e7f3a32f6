// Each portable section as a table: how its rows are read, in primary-key order, and written.
// The read maps what either driver returns (Date or text, boolean or 0/1, jsonb or JSON text,
// Buffer or Uint8Array, int8 as number or text) to one form; the write maps it back to values
// both databases accept.
import type { PortableRows, PortableSection, PortableWrites } from '../port/portable.ts'
import type { Dialect } from '../port/storage.ts'

type Row = Record<string, unknown>

export interface SectionTable<S extends PortableSection> {
	/** The table rows are written to. */
	table: string
	/** The select, without ORDER BY (one per database where they differ). */
	select: string | ((dialect: Dialect) => string)
	/** The primary key's columns; `text` ones are ordered by code point on both databases. */
	order: { column: string; text?: boolean }[]
	/** Rows per fetch: images are fetched a few at a time, so only a few are held at once. */
	fetch: number
	read(row: Row): PortableRows[S]
	write(row: PortableWrites[S]): Row
	/** How a row meets one already there: settings a started site made (its VAPID keys) give way. */
	onConflict?: string
	/** Whether the key is an identity whose sequence must move past imported ids (PostgreSQL). */
	identity?: boolean
}

export const text = (value: unknown) => String(value)
export const textOrNull = (value: unknown) =>
	value === null || value === undefined ? null : String(value)
export const integer = (value: unknown) => Number(value)
export const integerOrNull = (value: unknown) =>
	value === null || value === undefined ? null : Number(value)
export const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value)

export const everything = (table: string) => `SELECT * FROM "${table}"`

export type Tables = { [S in PortableSection]: SectionTable<S> }
