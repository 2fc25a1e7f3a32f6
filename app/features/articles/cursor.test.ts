import { describe, expect, it } from 'vitest'
import { decodeCursor, encodeCursor } from './cursor.ts'

describe('list cursors', () => {
	it('round-trips the position of the last item', () => {
		const cursor = { publishedAt: '2026-10-05T08:00:00.000Z', id: 42 }
		expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor)
	})

	it.each(['', 'abc', '1.2.3', 'zzzzzzzzzzzzz.1', '-1.2', '<script>.1'])(
		'ignores a malformed cursor %j',
		(value) => {
			expect(decodeCursor(value)).toBeUndefined()
		},
	)

	it('ignores a missing cursor', () => {
		expect(decodeCursor(null)).toBeUndefined()
	})
})
