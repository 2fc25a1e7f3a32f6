// Gzip for cached pages whose CSP nonce changes on every response. The page's fixed parts are
// compressed once; per response the nonce goes in as an uncompressed ("stored") deflate block
// and only the CRC is computed. The result is one ordinary gzip member any client can read.
//
// This is valid DEFLATE (RFC 1951): each part ends on a byte boundary after a sync flush and only
// the last block is marked final. Each part is compressed with the page before it as a preset
// dictionary, the nonces in it replaced by as many NUL bytes: HTML holds no NUL, so no match can
// cover a nonce byte, and the distances are right because the real nonce has the same length.
// Without this, text repeated across a nonce (an article's body and its hydration data) would be
// compressed twice.
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

const window = 32 * 1024

/** `fillerLength`: the byte length every filler will have (a nonce's is fixed). */
export function spliceGzip(
	parts: readonly (string | Buffer)[],
	fillerLength: number,
	level = 9,
): SplicedGzip {
	if (fillerLength > 0xffff) throw new RangeError('filler longer than one stored block')
	const raw = parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part))
	const placeholder = Buffer.alloc(fillerLength)
	let before = Buffer.alloc(0)
	const compressed = raw.map((part, index) => {
		const options = {
			level,
			...(before.length > 0 ? { dictionary: before.subarray(-window) } : {}),
			...(index === raw.length - 1 ? {} : { finishFlush: constants.Z_SYNC_FLUSH }),
		}
		const deflated = deflateRawSync(part, options)
		before = Buffer.concat([before.subarray(-window), part, placeholder])
		return deflated
	})
	const rawLength = raw.reduce((sum, part) => sum + part.length, 0)

	return {
		with(filler) {
			const fill = Buffer.from(filler, 'utf8')
			if (fill.length !== fillerLength) throw new RangeError(`filler must be ${fillerLength} bytes`)
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
