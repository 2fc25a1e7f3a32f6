// The instance's one LISTEN connection, shared by everything that watches the change feed (the
// live broker, the inbox streams). NOTIFY carries only a change id; watchers read the changes
// table themselves, from where they are. So when the connection is lost (the backend killed,
// PostgreSQL restarted), it is made again with backoff and every watcher is woken once it
// listens again: what was committed while nobody listened is read from the table then.
import type pg from 'pg'
import type { DatabaseGuard } from './database-guard.ts'

export interface ChangeListenerOptions {
	channel: string
	/** A new, unconnected client for the listening connection. */
	newClient(): pg.Client
	guard: DatabaseGuard
	firstDelayMs?: number
	maxDelayMs?: number
}

export interface ChangeListener {
	/** Calls `wake` after changes commit, and after the connection is made again. */
	watch(wake: () => void): () => void
	/**
	 * A change this process committed: its watchers wake at once, as SQLite's do, instead of
	 * after the NOTIFY's round trip (a page read right after a save sees the save).
	 */
	committed(): void
	/** Whether the connection is listening now (tests). */
	readonly listening: boolean
	/** Connections made so far, the first one included (tests, logs). */
	readonly connections: number
	close(): void
}

/** One closure over the LISTEN connection and its watchers: its short methods share them. */
export function createChangeListener(options: ChangeListenerOptions): ChangeListener {
	const firstDelayMs = options.firstDelayMs ?? 250
	const maxDelayMs = options.maxDelayMs ?? 5_000
	const watchers = new Set<() => void>()
	let client: pg.Client | undefined
	let listening = false
	let connections = 0
	let delay = firstDelayMs
	let timer: NodeJS.Timeout | undefined
	let closed = false

	const wakeAll = () => {
		for (const wake of [...watchers]) wake()
	}

	function reconnectLater() {
		if (closed || timer || watchers.size === 0) return
		timer = setTimeout(() => {
			timer = undefined
			void connect()
		}, delay)
		timer.unref()
		delay = Math.min(delay * 2, maxDelayMs)
	}

	async function connect() {
		if (closed || client || watchers.size === 0) return
		const listener = options.newClient()
		client = listener
		let gone = false
		const lost = () => {
			if (gone) return
			gone = true
			listening = false
			if (client === listener) client = undefined
			listener.end().catch(() => {})
			if (closed || watchers.size === 0) return
			// The database may be down: the guard finds out now, rather than at the next request.
			options.guard.suspect()
			reconnectLater()
		}
		listener.on('error', lost)
		listener.on('end', lost)
		listener.on('notification', wakeAll)
		try {
			await listener.connect()
			await listener.query(`LISTEN ${options.channel}`)
		} catch {
			lost()
			return
		}
		if (gone) return
		listening = true
		connections++
		delay = firstDelayMs
		// Whatever was committed while no connection listened is read now.
		wakeAll()
	}

	// Back from an outage: listen again now rather than at the end of a backoff, and let every
	// watcher read what failed to be read while the database was away.
	const stopRecovered = options.guard.onRecovered(() => {
		if (!client && timer) {
			clearTimeout(timer)
			timer = undefined
			delay = firstDelayMs
			void connect()
		}
		wakeAll()
	})

	function disconnect() {
		clearTimeout(timer)
		timer = undefined
		const current = client
		client = undefined
		listening = false
		current?.end().catch(() => {})
	}

	return {
		watch(wake) {
			watchers.add(wake)
			if (!client && !timer) void connect()
			return () => {
				watchers.delete(wake)
				if (watchers.size === 0) disconnect()
			}
		},
		committed: wakeAll,
		get listening() {
			return listening
		},
		get connections() {
			return connections
		},
		close() {
			closed = true
			stopRecovered()
			watchers.clear()
			disconnect()
		},
	}
}
