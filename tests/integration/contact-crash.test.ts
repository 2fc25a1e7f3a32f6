// The contact API through a crash of the server process (kill -9 in the middle of a burst of
// submissions), on each database: every submission answered 201 is stored, and nothing twice.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contactFields, postContactJson } from '#tests/fixtures/contact.ts'
import { freePort, startServer } from '#tests/fixtures/process.ts'
import { databases } from '#tests/fixtures/storage.ts'

const burst = 200
/** How many answers come back before the process is killed. */
const killAfter = 20
/** Requests in flight at once. */
const inFlight = 8

interface Submission {
	body: Record<string, string>
	/** Each from its own address (through the trusted local proxy): the rate limit is not tested here. */
	ip: string
}

async function submissions(url: string): Promise<Submission[]> {
	const list: Submission[] = []
	for (let i = 0; i < burst; i++) {
		const identity = (await (await fetch(`${url}/api/contact`)).json()) as Record<string, string>
		list.push({
			body: { ...contactFields, subject: `Crash ${i}`, ...identity },
			ip: `10.9.${i >> 8}.${i & 255}`,
		})
	}
	return list
}

const send = (url: string, { body, ip }: Submission) =>
	postContactJson(url, body, { 'X-Forwarded-For': ip })

describe.each(databases)('contact submissions through a crash: $name', ({ create }) => {
	it('keeps every acknowledged submission exactly once, and a resend stores nothing twice', async () => {
		const database = await create()
		const dataDir = mkdtempSync(join(tmpdir(), 'canopy-contact-crash-'))
		// No minimum time: none of these is to be taken for a robot's (contact.test.ts tests that).
		const env = {
			DATA_DIR: dataDir,
			...database.env,
			TRUST_PROXY: '127.0.0.1',
			LOG_LEVEL: 'warn',
			CONTACT_FORM_MIN_SECONDS: '0',
		}
		const port = await freePort()
		const first = await startServer(env, port)
		try {
			const all = await submissions(first.url)

			const acknowledged = new Map<number, number>()
			let answered = 0
			// A few in flight at a time, as visitors would send them: the kill then always lands
			// with some mid-request and the rest still to come, however fast this machine is.
			const outcomes: PromiseSettledResult<number>[] = []
			let next = 0
			const sender = async () => {
				while (next < all.length) {
					const index = next++
					const submission = all[index] as Submission
					try {
						const response = await send(first.url, submission)
						const body = (await response.json()) as { id: number }
						if (response.status === 201) acknowledged.set(index, body.id)
						if (++answered === killAfter) first.child.kill('SIGKILL')
						outcomes[index] = { status: 'fulfilled', value: response.status }
					} catch (reason) {
						outcomes[index] = { status: 'rejected', reason }
					}
				}
			}
			await Promise.all(Array.from({ length: inFlight }, sender))
			await first.exited
			const failed = outcomes.filter((outcome) => outcome.status === 'rejected').length
			expect(acknowledged.size).toBeGreaterThanOrEqual(killAfter)
			// The kill landed in the middle of the burst.
			expect(failed).toBeGreaterThan(0)
			expect(
				outcomes.every((outcome) => outcome.status === 'rejected' || outcome.value === 201),
			).toBe(true)

			const second = await startServer(env, port)
			const storage = database.open()
			try {
				const stored = async () =>
					(await storage.messages.list({ box: 'inbox', limit: burst * 2, offset: 0 })).items
				const afterCrash = await stored()
				const bySubject = new Map(afterCrash.map((message) => [message.subject, message.id]))
				expect(bySubject.size, 'no submission stored twice').toBe(afterCrash.length)
				for (const [index, id] of acknowledged) expect(bySubject.get(`Crash ${index}`)).toBe(id)

				// Sent again with the same keys: those already stored answer 200 with their id.
				for (const [index, submission] of all.entries()) {
					const response = await send(second.url, submission)
					const { id } = (await response.json()) as { id: number }
					const before = bySubject.get(`Crash ${index}`)
					expect(response.status).toBe(before === undefined ? 201 : 200)
					if (before !== undefined) expect(id).toBe(before)
				}
				const final = await stored()
				expect(final).toHaveLength(burst)
				expect(new Set(final.map((message) => message.subject)).size).toBe(burst)
			} finally {
				second.child.kill('SIGTERM')
				await second.exited
				await storage.close()
			}
		} finally {
			first.child.kill('SIGKILL')
			await database.drop()
			rmSync(dataDir, { recursive: true, force: true })
		}
	}, 90_000)
})
