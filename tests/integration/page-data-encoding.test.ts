// How React Router writes a page's data into it (turbo-stream), as Canopy's patch of its encoder
// leaves it (decision 042): the same text as React Router's own encoder, and every value read back
// as it was written.
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'

const turboStream = (await import(
	new URL(
		'../../node_modules/react-router/dist/production/vendor/turbo-stream-v2/turbo-stream.js',
		import.meta.url,
	).href
)) as {
	encode(input: unknown, options?: object): ReadableStream<Uint8Array>
	decode(stream: ReadableStream<Uint8Array>, options?: object): Promise<{ value: unknown }>
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
	return new Response(stream).text()
}

describe('a page’s data, written and read back', () => {
	it('is written as React Router’s unpatched encoder writes it', async () => {
		const shared = { name: 'Peat', slug: 'peat' }
		const input = {
			items: [
				{ id: 1, tags: [shared], when: new Date(0), gone: undefined },
				{ id: 2, tags: [shared, null], n: -0, big: Number.NaN },
			],
			ok: true,
			page: 'x"y',
			list: new Set(['peat']),
		}
		// Written by React Router 8.4.0's own flatten.js for the same input.
		expect(await text(turboStream.encode(input))).toBe(
			'[{"_1":2,"_3":4,"_5":6,"_7":8},"items",[10,11],"ok",true,"page","x\\"y","list",["S",9],"peat",{"_12":22,"_14":23,"_24":25,"_26":-7},{"_12":13,"_14":15,"_16":-4,"_17":-2},"id",2,"tags",[18,-5],"n","big",{"_19":20,"_21":9},"name","Peat","slug",1,[18],"when",["D",0],"gone"]\n',
		)
	})

	it('reads back every kind of value as it was, shared objects still shared', async () => {
		let seed = 11
		const random = () => {
			seed = (seed * 16_807) % 2_147_483_647
			return seed / 2_147_483_647
		}
		const words = ['peat', 'río', 'x"y', '', '\u2028', 'peat']
		const leaf = () =>
			[1, 0, -7, 3.25, 1e21, true, false, null, words[Math.floor(random() * words.length)]][
				Math.floor(random() * 9)
			]
		const make = (depth: number): unknown => {
			const r = random()
			if (depth > 3 || r < 0.3) return leaf()
			if (r < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => make(depth + 1))
			if (r < 0.55) return new Date(Math.floor(random() * 1e12))
			if (r < 0.6) return new Map([[leaf(), make(depth + 1)]])
			if (r < 0.65) return new Set([leaf(), leaf()])
			return Object.fromEntries(
				Array.from({ length: Math.floor(random() * 5) }, (_, i) => [`k${i}`, make(depth + 1)]),
			)
		}
		for (let round = 0; round < 200; round++) {
			const shared = make(0)
			const input = { first: shared, again: shared, more: [make(0), shared] }
			const { value } = await turboStream.decode(turboStream.encode(input))
			expect(isDeepStrictEqual(value, input), `round ${round}`).toBe(true)
			const read = value as typeof input
			if (typeof shared === 'object' && shared !== null) {
				expect(read.first).toBe(read.again)
				expect(read.more[1]).toBe(read.first)
			}
		}
	})
})
