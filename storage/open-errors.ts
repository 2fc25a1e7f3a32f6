// What to tell an operator when the database cannot be opened: which database (never its
// password), what went wrong, and what to check, instead of a driver's stack trace. Used where
// the database is first touched: at start (server/index.ts) and by the command line.
import { join } from 'node:path'

interface Located {
	databaseUrl: string
	dataDir: string
}

type Failure = Error & { code?: unknown; errcode?: unknown; cause?: unknown }

/** DATABASE_URL as it may be shown: without its password, in the URL or in a parameter. */
export function redactDatabaseUrl(databaseUrl: string): string {
	try {
		const url = new URL(databaseUrl)
		url.password = ''
		for (const name of [...url.searchParams.keys()])
			if (/pass/i.test(name)) url.searchParams.delete(name)
		return url.toString()
	} catch {
		return 'DATABASE_URL'
	}
}

/** The first error in the chain of causes that carries a code, else the innermost one. */
function rootFailure(error: unknown): Failure | undefined {
	let current: unknown = error
	let last: Failure | undefined
	for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
		last = current as Failure
		if (last.code !== undefined || last.errcode !== undefined) return last
		current = last.cause
	}
	return last
}

function postgresProblem(failure: Failure, databaseUrl: string): string | undefined {
	const url = new URL(databaseUrl)
	const at = `${url.hostname || 'localhost'} port ${url.port || '5432'}`
	const user = decodeURIComponent(url.username) || 'the user Canopy runs as'
	const name = decodeURIComponent(url.pathname.slice(1)) || user
	const where = `the database at ${redactDatabaseUrl(databaseUrl)}`
	const checkUrl = 'and that DATABASE_URL names the right host and port'
	switch (failure.code) {
		case 'ECONNREFUSED':
			return `${where} cannot be reached: nothing accepts connections at ${at}. Check that PostgreSQL is running and listening there (listen_addresses and port in postgresql.conf), ${checkUrl}.`
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return `${where} cannot be reached: the host name ${url.hostname} is not known. Check the host in DATABASE_URL, and this machine's DNS.`
		case 'ETIMEDOUT':
		case 'EHOSTUNREACH':
		case 'ENETUNREACH':
			return `${where} cannot be reached: ${at} does not answer. Check that the database machine is up, that no firewall drops connections to that port, ${checkUrl}.`
		case '28P01':
			return `${where} refused the password of user "${user}". Check the user and password in DATABASE_URL (special characters percent-encoded).`
		case '28000':
			return `${where} refused user "${user}": ${failure.message}. Check the user in DATABASE_URL, that the role exists, and that pg_hba.conf lets it connect from this machine.`
		case '3D000':
			return `${where} is reachable, but there is no database "${name}". Create it (sudo -u postgres createdb --owner ${user} ${name}) or fix its name in DATABASE_URL.`
		case '42501':
			return `user "${user}" may not create Canopy's tables in ${where}: ${failure.message}. Make that role the database's owner (ALTER DATABASE ${name} OWNER TO ${user}) or grant it CREATE on the schema.`
		case '53300':
			return `${where} has no connection left for Canopy (too many clients). Raise max_connections in postgresql.conf, or run fewer instances.`
		case '57P03':
			return `${where} is starting up or shutting down. Start Canopy again once PostgreSQL is up.`
	}
	if (typeof failure.code === 'string' && /^[0-9A-Z]{5}$/.test(failure.code))
		return `${where} refused Canopy: ${failure.message} (SQLSTATE ${failure.code}).`
	// node-postgres reports these as plain errors, with no code; anything else (a bug, a command's
	// own error) is left alone, whatever its message says.
	if (failure.constructor !== Error) return undefined
	if (/password|SASL|SCRAM/i.test(failure.message))
		return `${where} asks for a password that DATABASE_URL does not give correctly: ${failure.message}. Check the user and password in DATABASE_URL.`
	if (/SSL/.test(failure.message))
		return `${where} cannot be reached over TLS: ${failure.message}. Check sslmode in DATABASE_URL against the server's ssl setting.`
	if (/timeout|terminated/i.test(failure.message))
		return `${where} cannot be reached: ${at} did not complete a PostgreSQL connection (${failure.message}). Check that PostgreSQL listens there, that no firewall is in the way, ${checkUrl}.`
	return undefined
}

const fileSystemCodes: Record<string, string> = {
	EACCES: 'permission denied',
	EPERM: 'operation not permitted',
	EROFS: 'the file system is read-only',
	ENOTDIR: 'part of the path is a file, not a folder',
	EEXIST: 'it is a file, not a folder',
	ENOSPC: 'the disk is full',
}

function sqliteProblem(failure: Failure, dataDir: string): string | undefined {
	const file = join(dataDir, 'canopy.db')
	const check = `DATA_DIR must be a folder that the user running Canopy can write to (Canopy makes it when missing); check the path and its permissions, or set DATA_DIR to another folder.`
	const code = typeof failure.code === 'string' ? failure.code : ''
	if (code in fileSystemCodes)
		return `the database folder DATA_DIR=${dataDir} cannot be used: ${fileSystemCodes[code]}. ${check}`
	if (code !== 'ERR_SQLITE_ERROR') return undefined
	switch (failure.errcode) {
		case 14: // SQLITE_CANTOPEN
		case 8: // SQLITE_READONLY
		case 23: // SQLITE_AUTH
			return `the database file ${file} cannot be opened for writing (${failure.message}). ${check}`
		case 13: // SQLITE_FULL
			return `the database file ${file} cannot grow: the disk is full. Free some space.`
		case 26: // SQLITE_NOTADB
		case 11: // SQLITE_CORRUPT
			return `${file} is not a usable SQLite database (${failure.message}). Move it aside and restore a backup (README, Backups), or point DATA_DIR at the right folder.`
	}
	return undefined
}

/**
 * The sentence to show when opening or migrating the database failed with `error`, or undefined
 * when `error` is something else (a bug, whose stack trace is then worth having).
 */
export function describeOpenFailure(error: unknown, config: Located): string | undefined {
	const failure = rootFailure(error)
	if (!failure) return undefined
	return config.databaseUrl
		? postgresProblem(failure, config.databaseUrl)
		: sqliteProblem(failure, config.dataDir)
}
