// Keyset cursors for the newest-first list: (publishedAt, id) of the last item shown, so a page
// is an index range scan however deep the reader goes, never an OFFSET.
import type { ListCursor } from '#storage/port/articles.ts'

export function encodeCursor(cursor: ListCursor): string {
	return `${Date.parse(cursor.publishedAt).toString(36)}.${cursor.id.toString(36)}`
}

export function decodeCursor(value: string | null | undefined): ListCursor | undefined {
	const match = /^([0-9a-z]{1,12})\.([0-9a-z]{1,12})$/.exec(value ?? '')
	if (!match) return undefined
	const time = Number.parseInt(match[1] ?? '', 36)
	const id = Number.parseInt(match[2] ?? '', 36)
	if (!Number.isSafeInteger(time) || !Number.isSafeInteger(id)) return undefined
	const date = new Date(time)
	if (Number.isNaN(date.getTime())) return undefined
	return { publishedAt: date.toISOString(), id }
}
