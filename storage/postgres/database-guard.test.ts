// The breaker's rules on their own, with a probe the test answers; the real database's part is
// in tests/integration/database-outage.test.ts and postgres-fault.test.ts.
import { describe, expect, it } from 'vitest'
import { storageOutage } from '../port/unavailable.ts'
import { isConnectionFailure, isPlainRead, isRefusal, wasNotSent } from './connection-errors.ts'
import { createDatabaseGuard } from './database-guard.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function scriptedGuard() {
	let databaseUp = true
	let probes = 0
	const events: string[] = []
	const guard = createDatabaseGuard({
		probe: async () => {
			probes++
			if (!databaseUp)
				throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
		},
		slowMs: 50,
		probeIntervalMs: 20,
		onDown: () => events.push('down'),
		onUp: () => events.push('up'),
	})
	return {
		guard,
		events,
		get probes() {
			return probes
		},
		set databaseUp(up: boolean) {
			databaseUp = up
		},
	}
}

describe('the database guard', () => {
	it('passes work through untouched while the database answers', async () => {
		const script = scriptedGuard()
		const { guard } = script
		await expect(guard.watch(Promise.resolve(42))).resolves.toBe(42)
		await expect(guard.watch(Promise.reject(new Error('syntax error')))).rejects.toThrow(
			'syntax error',
		)
		expect(guard.available).toBe(true)
		expect(script.probes).toBe(0)
		guard.stop()
	})

	it('checks once when work is slow, gives up on everything waiting when the check fails, and fails new work at once', async () => {
		const script = scriptedGuard()
		const { guard } = script
		script.databaseUp = false
		const late: unknown[] = []
		const hanging = guard.watch(
			new Promise<string>((resolve) => setTimeout(() => resolve('late'), 200)),
			(value) => late.push(value),
		)
		const outage = await hanging.catch((error: unknown) => error)
		expect(storageOutage(outage)?.retryAfterSeconds).toBeGreaterThanOrEqual(2)
		expect(guard.available).toBe(false)
		expect(() => guard.assertAvailable()).toThrow(/cannot be reached/)
		const started = performance.now()
		await expect(guard.watch(sleep(1_000))).rejects.toThrow(/cannot be reached/)
		expect(performance.now() - started).toBeLessThan(100)
		// What the abandoned work yields later is handed back, to be closed.
		await sleep(250)
		expect(late).toEqual(['late'])

		// One probe at a time keeps checking; the first that succeeds ends the outage.
		const probesWhileDown = script.probes
		await sleep(100)
		expect(script.probes).toBeGreaterThan(probesWhileDown)
		let recovered = 0
		guard.onRecovered(() => recovered++)
		script.databaseUp = true
		await sleep(100)
		expect(guard.available).toBe(true)
		expect(recovered).toBe(1)
		expect(script.events).toEqual(['down', 'up'])
		guard.stop()
	})

	it('goes down at once on a refusal, without waiting for a probe', () => {
		const { guard, events } = scriptedGuard()
		guard.down(new Error('connect ECONNREFUSED'))
		expect(guard.available).toBe(false)
		expect(events).toEqual(['down'])
		guard.stop()
	})
})

describe('what counts as a lost connection, and what may run again', () => {
	it('tells connection failures from statement errors', () => {
		const coded = (code: string) => Object.assign(new Error(code), { code })
		expect(isConnectionFailure(coded('ECONNREFUSED'))).toBe(true)
		expect(isConnectionFailure(coded('57P01'))).toBe(true)
		expect(isConnectionFailure(coded('08006'))).toBe(true)
		expect(isConnectionFailure(new Error('Connection terminated unexpectedly'))).toBe(true)
		expect(isConnectionFailure(coded('23505'))).toBe(false)
		expect(isConnectionFailure(coded('57014'))).toBe(false)
		expect(isRefusal(coded('57P03'))).toBe(true)
		expect(isRefusal(coded('ECONNRESET'))).toBe(false)
		expect(
			wasNotSent(new Error('Client has encountered a connection error and is not queryable')),
		).toBe(true)
		expect(wasNotSent(new Error('Connection terminated unexpectedly'))).toBe(false)
	})

	it('repeats only plain reads', () => {
		expect(isPlainRead('select "id" from "articles" where "slug" = $1')).toBe(true)
		expect(isPlainRead('  SELECT count(*) FROM changes')).toBe(true)
		expect(isPlainRead('select "id" from "mail_outbox" for update skip locked')).toBe(false)
		expect(isPlainRead('SELECT pg_notify($1, $2)')).toBe(false)
		expect(isPlainRead('SELECT pg_advisory_xact_lock($1)')).toBe(false)
		expect(isPlainRead('insert into "messages" ("name") values ($1)')).toBe(false)
		expect(isPlainRead('with moved as (delete from x returning *) select * from moved')).toBe(false)
	})
})
