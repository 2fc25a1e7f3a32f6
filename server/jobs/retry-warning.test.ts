import { describe, expect, it } from 'vitest'
import { createLogger } from '#server/logger.ts'
import { StorageUnavailable } from '#storage/port/unavailable.ts'
import { outageQuietMs, retryWarning } from './retry-warning.ts'

function logged() {
	const lines: Record<string, unknown>[] = []
	return { lines, logger: createLogger('debug', (line) => lines.push(JSON.parse(line))) }
}

const outage = () => new StorageUnavailable('the database is unavailable', { retryAfterSeconds: 1 })

describe("a job's retry warning", () => {
	it('says an outage once a minute, with how many alike it left out', () => {
		const { lines, logger } = logged()
		let clock = 0
		const warn = retryWarning(logger, 'mail: could not read the outbox', () => clock)
		for (let second = 0; second < 150; second++) {
			clock = second * 1_000
			warn(outage())
		}
		expect(lines.map((line) => [line.level, line.msg, line.alikeLeftOut])).toEqual([
			['warn', 'mail: could not read the outbox; will retry', undefined],
			['warn', 'mail: could not read the outbox; will retry', outageQuietMs / 1_000 - 1],
			['warn', 'mail: could not read the outbox; will retry', outageQuietMs / 1_000 - 1],
		])
	})

	it('logs every other failure, outage or not around it', () => {
		const { lines, logger } = logged()
		const warn = retryWarning(logger, 'push: could not claim deliveries', () => 0)
		warn(outage())
		warn(new Error('syntax error at or near "SELEC"'))
		warn(outage())
		warn(new Error('syntax error at or near "SELEC"'))
		expect(lines).toHaveLength(3)
		expect(lines.map((line) => (line.error as { message?: string }).message)).toEqual([
			'the database is unavailable',
			'syntax error at or near "SELEC"',
			'syntax error at or near "SELEC"',
		])
	})
})
