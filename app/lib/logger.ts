// What features log through: the server gives them its logger (server/logger.ts writes JSON lines).
export interface Logger {
	debug(msg: string, fields?: Record<string, unknown>): void
	info(msg: string, fields?: Record<string, unknown>): void
	warn(msg: string, fields?: Record<string, unknown>): void
	error(msg: string, fields?: Record<string, unknown>): void
}
