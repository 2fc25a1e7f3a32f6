// Gzip for cached pages whose CSP nonce changes on every response. The page's fixed parts are
// compressed once; per response the nonce goes in as an uncompressed ("stored") deflate block
// and only the CRC is computed. The result is one ordinary gzip member any client can read.
//
// This is valid DEFLATE (RFC 1951): each part ends on a byte boundary after a sync flush, the
// next part's compressor starts fresh (its back-references never reach into earlier parts), and
// only the last block is marked final.
import { constants, crc32, deflateRawSync } from 'node:zlib'

const header = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03])

export interface SplicedGzip {
	/** The gzip body for a page with `filler` between each pair of parts. */
	with(filler: string): Buffer
}

function storedBlock(data: Buffer): Buffer {
	// BFINAL=0, BTYPE=00, padded to the byte boundary; then LEN and its one's complement.
	const block = Buffer.alloc(5 + data.length)
	block.writeUInt16LE(data.length, 1)
	block.writeUInt16LE(~data.length & 0xffff, 3)
	data.copy(block, 5)
	return block
}

export function spliceGzip(parts: string[], level = 9): SplicedGzip {
	const raw = parts.map((part) => Buffer.from(part, 'utf8'))
	const compressed = raw.map((part, index) =>
		index === raw.length - 1
			? deflateRawSync(part, { level })
			: deflateRawSync(part, { level, finishFlush: constants.Z_SYNC_FLUSH }),
	)
	const rawLength = raw.reduce((sum, part) => sum + part.length, 0)

	return {
		with(filler) {
			const fill = Buffer.from(filler, 'utf8')
			if (fill.length > 0xffff) throw new RangeError('filler longer than one stored block')
			const block = storedBlock(fill)
			const pieces: Buffer[] = [header]
			let crc = 0
			for (let index = 0; index < raw.length; index++) {
				if (index > 0) {
					pieces.push(block)
					crc = crc32(fill, crc)
				}
				pieces.push(compressed[index] as Buffer)
				crc = crc32(raw[index] as Buffer, crc)
			}
			const trailer = Buffer.alloc(8)
			trailer.writeUInt32LE(crc >>> 0, 0)
			trailer.writeUInt32LE((rawLength + fill.length * (raw.length - 1)) % 2 ** 32, 4)
			pieces.push(trailer)
			return Buffer.concat(pieces)
		},
	}
}
