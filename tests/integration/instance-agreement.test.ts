// Two real instances on one PostgreSQL database, started with settings that differ: a different
// SITE_URL is warned about, a different push key refuses the start until every instance with the
// old one has stopped (server/instance-agreement.ts).
import { hostname } from 'node:os'
import { afterEach, describe, expect, it } from 'vitest'
import webPush from 'web-push'
import {
	freePort,
	runServerToExit,
	type ServerProcess,
	startServer,
} from '#tests/fixtures/process.ts'
import { postgresDatabase, postgresUrl, type TestDatabase } from '#tests/fixtures/storage.ts'

describe.runIf(postgresUrl)('instances started with settings that differ', () => {
	let database: TestDatabase | undefined
	const servers: ServerProcess[] = []
	afterEach(async () => {
		for (const server of servers.splice(0)) {
			server.child.kill('SIGTERM')
			await server.exited
		}
		await database?.drop()
	})

	async function stop(server: ServerProcess) {
		server.child.kill('SIGTERM')
		expect(await server.exited).toBe(0)
		servers.splice(servers.indexOf(server), 1)
	}

	async function pushKey(server: ServerProcess): Promise<string> {
		const response = await fetch(`${server.url}/api/push/key`)
		return ((await response.json()) as { publicKey: string }).publicKey
	}

	it('warns about SITE_URL, refuses another push key, and takes it once the others stopped', async () => {
		database = await postgresDatabase()
		const site = 'https://example.org'
		const [portA, portB, portC] = [await freePort(), await freePort(), await freePort()]

		const a = await startServer({ ...database.env, SITE_URL: site }, portA)
		servers.push(a)
		const b = await startServer({ ...database.env, SITE_URL: 'https://www.example.org' }, portB)
		servers.push(b)
		expect(b.output()).toContain(
			`"msg":"SITE_URL differs between instances: https://www.example.org here, https://example.org on ${hostname()}:${portA}. Set the same SITE_URL on every instance (README, Deployment).","variable":"SITE_URL","here":"https://www.example.org","there":"https://example.org","instance":"${hostname()}:${portA}"`,
		)
		expect(a.output()).not.toContain('differs between instances')
		// Both hand browsers the pair kept in the database.
		const stored = await pushKey(a)
		expect(await pushKey(b)).toBe(stored)

		const own = webPush.generateVAPIDKeys()
		const withOwnPair = {
			...database.env,
			SITE_URL: site,
			VAPID_PUBLIC_KEY: own.publicKey,
			VAPID_PRIVATE_KEY: own.privateKey,
		}
		const refused = await runServerToExit(withOwnPair, portC)
		expect(refused.code).toBe(1)
		expect(refused.stderr).toMatch(
			new RegExp(
				`^Canopy cannot start: VAPID_PUBLIC_KEY here is ${own.publicKey}, but the instance ${hostname()}:${portA} \\(running since [-\\d:.TZ]+\\) signs push messages with ${stored}\\. .* To change the pair, stop every instance first\\.\\n$`,
			),
		)
		expect(refused.stdout).not.toContain('Canopy is running')
		expect(refused.stderr + refused.stdout).not.toContain(own.privateKey)

		await stop(a)
		await stop(b)
		const c = await startServer(withOwnPair, portC)
		servers.push(c)
		expect(await pushKey(c)).toBe(own.publicKey)
		expect(c.output()).not.toContain('differs between instances')
		// Four starts and two stops of a real server, one after another: 7 s on an idle machine,
		// over 20 s while the rest of the suite keeps both cores busy.
	}, 60_000)
})
