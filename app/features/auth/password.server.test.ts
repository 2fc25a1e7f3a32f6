import { describe, expect, it } from 'vitest'
import { hashLogCost, hashPassword, passwordProblem, verifyPassword } from './password.server.ts'

describe('password hashing', () => {
	it('hashes with scrypt at N=2^17, r=8, p=1 and a fresh salt each time', async () => {
		const [first, second] = await Promise.all([
			hashPassword('river delta 42', hashLogCost('production')),
			hashPassword('river delta 42', hashLogCost('production')),
		])
		expect(first).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{88}$/)
		expect(first).not.toBe(second)
		expect(await verifyPassword(first as string, 'river delta 42')).toBe(true)
	})

	it('uses 2^17 whatever NODE_ENV is, but test, where it is the lowest accepted cost', async () => {
		for (const nodeEnv of [undefined, 'production', 'development', '', 'TEST'])
			expect(hashLogCost(nodeEnv)).toBe(17)
		expect(hashLogCost('test')).toBe(10)
		const cheap = await hashPassword('river delta 42', hashLogCost('test'))
		expect(cheap).toMatch(/^scrypt\$10\$8\$1\$/)
		expect(await verifyPassword(cheap, 'river delta 42')).toBe(true)
		expect(await verifyPassword(cheap.replace('$10$', '$9$'), 'river delta 42')).toBe(false)
	})

	it('verifies the right password only, in any Unicode form of it', async () => {
		const stored = await hashPassword('Café de la forêt')
		expect(await verifyPassword(stored, 'Café de la forêt')).toBe(true)
		expect(await verifyPassword(stored, 'Cafe\u0301 de la fore\u0302t')).toBe(true)
		expect(await verifyPassword(stored, 'café de la forêt')).toBe(false)
	})

	it.each([
		'',
		'plain',
		'scrypt$17$8$1$c2FsdA==',
		'scrypt$40$8$1$c2FsdA==$a2V5',
		'bcrypt$10$abc$def$ghi$jkl',
	])('refuses a stored value it cannot read (%j) without throwing', async (stored) => {
		expect(await verifyPassword(stored, 'anything')).toBe(false)
	})
})

describe('passwordProblem', () => {
	it.each([
		['short', 'Use at least 8 characters.'],
		['x'.repeat(129), 'Use at most 128 characters.'],
		[
			'password1',
			'This is one of the most common passwords, so it is easy to guess. Choose another.',
		],
		[
			'QWERTYUIOP',
			'This is one of the most common passwords, so it is easy to guess. Choose another.',
		],
	])('refuses %j', async (password, message) => {
		expect(await passwordProblem(password)).toBe(message)
	})

	it.each(['kelp forests grow fast', 'x'.repeat(128), '🌍🌱🌊🐝🌳🦋🐟🌾'])(
		'accepts %j',
		async (password) => {
			expect(await passwordProblem(password)).toBeUndefined()
		},
	)
})
