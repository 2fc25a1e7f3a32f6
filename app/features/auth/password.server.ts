// Passwords: length rules, a refusal of the most common ones, and scrypt hashing at OWASP's
// floor (N=2^17, r=8, p=1). The parameters are stored with each hash, so they can be raised
// later without locking anyone out, and a hash made at another cost still verifies.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'
import { maxPasswordLength, minPasswordLength } from './password-rules.ts'

const scrypt = promisify(scryptCallback) as (
	password: string,
	salt: Buffer,
	keyLength: number,
	options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>

const productionLogCost = 17
// The lowest cost verifyPassword accepts. Rails and Django hash at their minimum cost in tests
// too: the same code, 128 times less CPU (about a second a hash on a small VM at 2^17, and the
// tests make some 300 hashes).
const testLogCost = 10

/** log2 of scrypt's N for new hashes: OWASP's floor, except under NODE_ENV=test. */
export function hashLogCost(nodeEnv: string | undefined): number {
	return nodeEnv === 'test' ? testLogCost : productionLogCost
}

const blockSize = 8
const parallelism = 1
const keyLength = 64

// scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is below what N=2^17 takes.
function maxmem(log2N: number, r: number): number {
	return 128 * 2 ** log2N * r * 2
}

// NIST SP 800-63B: compare passwords in one Unicode form, so the same characters typed on two
// keyboards are the same password.
function normalise(password: string): string {
	return password.normalize('NFKC')
}

let common: Set<string> | undefined

/** The ~18,000 most common passwords of at least 8 characters, loaded on first use. */
async function commonPasswords(): Promise<Set<string>> {
	if (!common) {
		const { dictionary } = await import('@zxcvbn-ts/language-common')
		const list = (dictionary as Record<string, string[]>)['passwords-common'] ?? []
		common = new Set(
			list.filter((word) => word.length >= minPasswordLength).map((word) => word.toLowerCase()),
		)
	}
	return common
}

/** Why a new password cannot be used, in words for the person choosing it; undefined when fine. */
export async function passwordProblem(password: string): Promise<string | undefined> {
	const length = [...normalise(password)].length
	if (length < minPasswordLength) return `Use at least ${minPasswordLength} characters.`
	if (length > maxPasswordLength) return `Use at most ${maxPasswordLength} characters.`
	if ((await commonPasswords()).has(normalise(password).toLowerCase())) {
		return 'This is one of the most common passwords, so it is easy to guess. Choose another.'
	}
	return undefined
}

export async function hashPassword(
	password: string,
	logCost = hashLogCost(process.env.NODE_ENV),
): Promise<string> {
	const salt = randomBytes(16)
	const key = await scrypt(normalise(password), salt, keyLength, {
		N: 2 ** logCost,
		r: blockSize,
		p: parallelism,
		maxmem: maxmem(logCost, blockSize),
	})
	return [
		'scrypt',
		logCost,
		blockSize,
		parallelism,
		salt.toString('base64'),
		key.toString('base64'),
	].join('$')
}

/** True when the password matches; false for a wrong password or a stored value it cannot read. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
	const [scheme, log2N, r, p, salt, key] = stored.split('$')
	const cost = Number(log2N)
	const block = Number(r)
	const parallel = Number(p)
	if (scheme !== 'scrypt' || !salt || !key || ![cost, block, parallel].every(Number.isInteger))
		return false
	if (cost < 10 || cost > 22 || block < 1 || block > 32 || parallel < 1 || parallel > 16)
		return false
	const expected = Buffer.from(key, 'base64')
	const actual = await scrypt(normalise(password), Buffer.from(salt, 'base64'), expected.length, {
		N: 2 ** cost,
		r: block,
		p: parallel,
		maxmem: maxmem(cost, block) * parallel,
	})
	return expected.length === actual.length && timingSafeEqual(expected, actual)
}
