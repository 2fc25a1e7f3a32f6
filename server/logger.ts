// JSON lines on stdout: one object per event, easy to grep and to ship to a log store.
import type { Logger } from '#app/lib/logger.ts'
import type { LogLevel } from './env.ts'

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 }

function serialise(value: unknown): unknown {
	if (value instanceof Error)
		return { name: value.name, message: value.message, stack: value.stack }
	return value
}

export function createLogger(
	level: LogLevel,
	write: (line: string) => void = (line) => process.stdout.write(line),
): Logger {
	const log =
		(at: Exclude<LogLevel, 'silent'>) =>
		(msg: string, fields: Record<string, unknown> = {}) => {
			if (rank[at] < rank[level]) return
			const entry: Record<string, unknown> = { time: new Date().toISOString(), level: at, msg }
			for (const [key, value] of Object.entries(fields)) entry[key] = serialise(value)
			write(`${JSON.stringify(entry)}\n`)
		}
	return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') }
}
