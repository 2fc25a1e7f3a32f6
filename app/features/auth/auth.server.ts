// Sign-in for the editor area, with better-auth over Canopy's own database and tables
// (migrations 0002_auth). See docs/decisions/005-sign-in-with-better-auth.md.
import { randomBytes } from 'node:crypto'
import { type BetterAuthOptions, betterAuth } from 'better-auth'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import { hashPassword, verifyPassword } from './password.server.ts'
import { maxPasswordLength, minPasswordLength } from './password-rules.ts'
import { isDeactivated, signInHooks } from './sign-in-guard.server.ts'

/** The header the HTTP layer sets from the socket (or a trusted proxy); anything a client sent under it is dropped. */
export const clientIpHeader = 'x-canopy-client-ip'
export const authBasePath = '/api/auth'
const fifteenMinutes = 15 * 60

/** The key that signs session cookies: made once, kept in the database, shared by every instance. */
export function authSecret(storage: Storage): Promise<string> {
	return storage.settings.setIfAbsent('auth.secret', randomBytes(32).toString('base64url'))
}

export interface AuthOptions {
	storage: Storage
	/** The database better-auth keeps its tables in: given by the composition root (server/compose.ts). */
	database: NonNullable<BetterAuthOptions['database']>
	siteUrl: string
	secret: string
	logger: Logger
}

/**
 * Call after storage.migrate(): better-auth checks the tables once, when it is created. One
 * options object, as better-auth takes it: long because every choice is spelled out.
 */
export function createAuth({ storage, database, siteUrl, secret, logger }: AuthOptions) {
	return betterAuth({
		appName: 'Canopy',
		baseURL: siteUrl,
		basePath: authBasePath,
		secret,
		database,
		emailAndPassword: {
			enabled: true,
			// Accounts are made by an admin (setup link, team invite) or the CLI, never by sign-up.
			disableSignUp: true,
			minPasswordLength,
			maxPasswordLength,
			password: {
				hash: hashPassword,
				verify: ({ hash, password }) => verifyPassword(hash, password),
			},
		},
		user: {
			additionalFields: {
				role: { type: 'string', required: true, input: false },
				// Set by an admin on the team page; a deactivated account's sessions count as none.
				deactivatedAt: { type: 'date', required: false, input: false },
				// The staff area's language the account chose on its own page ('' : the browser's).
				interfaceLanguage: { type: 'string', required: false, input: false, defaultValue: '' },
			},
		},
		hooks: signInHooks(storage),
		databaseHooks: {
			// The last word on deactivation: no path into better-auth makes them a session.
			session: {
				create: { before: async (session) => !(await isDeactivated(storage, session.userId)) },
			},
		},
		rateLimit: {
			// Explicit: better-auth's default follows NODE_ENV as it was when the module loaded.
			enabled: true,
			storage: 'database',
			customRules: {
				'/sign-in/email': { window: fifteenMinutes, max: 5 },
				'/request-password-reset': { window: fifteenMinutes, max: 5 },
			},
		},
		advanced: {
			cookiePrefix: 'canopy',
			useSecureCookies: siteUrl.startsWith('https:'),
			ipAddress: { ipAddressHeaders: [clientIpHeader] },
			disableOriginCheck: false,
		},
		telemetry: { enabled: false },
		logger: {
			level: 'warn',
			disableColors: true,
			// better-auth logs what visitors get wrong (a wrong password, a foreign Origin) as errors;
			// for us those are warnings. Real failures reach us as exceptions (openAuth, handlers).
			log: (level, message, ...args) => {
				// A read of the tables check that failed: openAuth reads again, and throws when the
				// check itself fails, so this line would only be noise from a schema dropped nearby.
				const transient = message.startsWith('Could not validate the database schema')
				const write =
					(level === 'error' || level === 'warn') && !transient ? logger.warn : logger.info
				write(`auth: ${message}`, args.length > 0 ? { details: args } : {})
			},
		},
	})
}

export type Auth = ReturnType<typeof createAuth>

/**
 * Creates the instance and waits for better-auth's check of the tables, so a mismatch shows at
 * start (not on someone's first sign-in) and nothing is left running when the caller closes the
 * database.
 */
export async function openAuth(options: AuthOptions): Promise<Auth> {
	const auth = createAuth(options)
	const context = (await auth.$context) as { checkSchema?: () => Promise<void> | undefined }
	for (let attempt = 1; ; attempt++) {
		try {
			// The check already under way: calling it again shares its promise, and a mismatch
			// throws here. A failed read is not kept: calling it again reads again.
			await context.checkSchema?.()
			return auth
		} catch (error) {
			if (attempt === maxSchemaReads || !catalogMovedUnderfoot(error)) throw error
		}
	}
}

/**
 * On PostgreSQL better-auth's check reads the catalog of the whole database, every schema's
 * tables, not only Canopy's. A schema or table dropped while it reads (another application's on
 * a shared server, a finished test's) fails that read with invalid_schema_name, undefined_table
 * or, when it goes between the read of its tables and of their columns, undefined_column: that
 * says nothing about Canopy's tables, so the check reads again.
 */
function catalogMovedUnderfoot(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code
	return code === '3F000' || code === '42P01' || code === '42703'
}
const maxSchemaReads = 10
