// The CLI's commands (cli.ts starts it): site administration from the shell, through the same
// feature code the web uses. Works beside a running server (SQLite WAL, or PostgreSQL).
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { rollUpOldViews, viewRetention } from '#app/features/analytics/retention.server.ts'
import { saveArticle, unpublishArticle } from '#app/features/articles/articles.server.ts'
import { FrontMatterError, parseArticleFile } from '#app/features/articles/front-matter.server.ts'
import { createResetLink, parseResetEmail } from '#app/features/auth/password-reset.server.ts'
import { createUser } from '#app/features/auth/users.server.ts'
import { messageRetention } from '#app/features/contact/message-retention.server.ts'
import { showCurrentConfig } from '#app/features/remote-config/config-admin.server.ts'
import { describeOpenFailure } from '#storage/open-errors.ts'
import { openStorage } from '#storage/open-storage.ts'
import { storageOutage } from '#storage/port/unavailable.ts'
import type { StorageHandle as Storage } from '#storage/storage-handle.ts'
import { ConfigError, loadConfig } from './env.ts'
import { createLogger } from './logger.ts'
import { CommandError } from './portable/command-error.ts'
import { openSiteAuth } from './site-auth.ts'
import { configuredStorageRules } from './storage-rules.ts'

const usage = `Usage: npm run cli -- <command>

Commands:
  db:migrate                      apply pending database migrations
  article:publish <file.md>       publish (or update) the article in a Markdown file with front matter
      --draft                       save it as a draft instead
  article:unpublish <slug>        take an article off the site (it stays as a draft)
  user:create --email <address> --role admin|editor [--name <name>]
                                  make an account; the password is read from standard input,
                                  or generated and printed once when none is piped in
  user:reset-link --email <address>
                                  print a one-time link (valid one hour) to set the password
  export [file]                   write the whole site to one JSON file (standard output when no
                                  file or -): settings, accounts, articles, images, messages,
                                  configuration versions, push subscriptions, statistics
      --with-passwords              include password hashes and API keys (keep the file secret)
  import <file>                   read an export into this database, which must be new (no
                                  accounts, no articles but the untouched samples); - reads stdin
  import:ghost <file.json>        bring a Ghost site in: its posts, pages, tags, authors and images
      --images <folder>             Ghost's content/images folder (images are not in the .json)
      --dry-run                     report what would be imported and what cannot, write nothing
  import:wordpress <file.xml>     the same for a WordPress export (Tools → Export → All content)
      --images <folder>             WordPress's wp-content/uploads folder
      --dry-run                     report only
                                  Either can run again: posts already here are left as they are.
  backup [file]                   SQLite: a consistent copy of the database while the site runs
                                  (default DATA_DIR/backups/canopy-<time>.db); PostgreSQL: says
                                  how to use pg_dump
  contact:retention [days]        show, or set, how many days contact messages are kept (365)
  analytics:retention [days]      show, or set, how many days screen views are kept before their
                                  days are rolled up into daily totals (90)
  analytics:rollup                roll up the days older than that now (the server does it hourly)
  config:show                     print the current remote configuration version and its document
  help                            show this text

Front matter keys: title (required), slug, summary, author, tags, cover, coverAlt, publishedAt,
language (a code such as es or pt-BR), translationOf (the slug of the article it translates).
The database is the one the server uses: DATA_DIR (default ./data) or DATABASE_URL.`

class UsageError extends Error {}

const fixViewRetention = 'Set it with: npm run cli -- analytics:retention <days>'

interface Flags {
	draft: boolean
	dryRun: boolean
	images?: string
	withPasswords: boolean
	email?: string
	role?: string
	name?: string
}

async function readStdin(): Promise<string> {
	if (process.stdin.isTTY) return ''
	let text = ''
	for await (const chunk of process.stdin) text += chunk
	return text.replace(/\r?\n$/, '')
}

/** What a command prints: a string goes to standard output. */
type Output = string | { stdout?: string; stderr?: string }

async function openCliAuth(storage: Storage) {
	const config = loadConfig(process.env)
	const logger = createLogger('warn', (line) => process.stderr.write(line))
	const auth = await openSiteAuth(storage, config.siteUrl, logger)
	return { auth, siteUrl: config.siteUrl }
}

const commands: Record<
	string,
	(storage: Storage, args: string[], flags: Flags) => Promise<Output>
> = {
	async 'db:migrate'(storage) {
		const applied = await storage.migrate()
		return applied.length ? `Applied ${applied.join(', ')}.` : 'The database is up to date.'
	},
	async 'article:publish'(storage, [file], flags) {
		if (!file) throw new UsageError('article:publish needs the path of a Markdown file.')
		let text: string
		try {
			text = readFileSync(file, 'utf8')
		} catch {
			throw new UsageError(`Cannot read ${file}: check the path.`)
		}
		const result = await saveArticle(
			storage,
			parseArticleFile(text),
			flags.draft ? 'draft' : 'published',
		)
		if (!result.ok) {
			const lines = Object.entries(result.errors).map(
				([field, messages]) => `  ${field}: ${messages.join(' ')}`,
			)
			throw new UsageError(`The article was not saved:\n${lines.join('\n')}`)
		}
		const { article, change } = result
		const what = article.status === 'published' ? 'Published' : 'Saved as a draft'
		return `${what}: "${article.title}" at /articles/${article.slug}${change ? ` (change ${change.id}, ${change.kind})` : ''}`
	},
	async 'article:unpublish'(storage, [slug]) {
		if (!slug) throw new UsageError('article:unpublish needs the slug of an article.')
		const saved = await unpublishArticle(storage, slug)
		if (!saved) throw new UsageError(`There is no article with the slug "${slug}".`)
		return saved.change
			? `Unpublished /articles/${slug} (change ${saved.change.id}).`
			: `/articles/${slug} was not published.`
	},
	async 'contact:retention'(storage, [days]) {
		if (days === undefined) {
			const current = await messageRetention.read(storage)
			if (!current.ok) throw new UsageError(current.error)
			return `Contact messages are kept for ${current.days} days.`
		}
		const set = await messageRetention.set(storage, days)
		if (!set.ok) throw new UsageError(set.error)
		return `Contact messages are now kept for ${set.days} days; older ones are deleted within the hour.`
	},
	async 'analytics:retention'(storage, [days]) {
		if (days === undefined) {
			const current = await viewRetention.read(storage)
			if (!current.ok) throw new UsageError(`${current.error} ${fixViewRetention}`)
			return `Screen views are kept for ${current.days} days, then rolled up into daily totals.`
		}
		const set = await viewRetention.set(storage, days)
		if (!set.ok) throw new UsageError(set.error)
		return `Screen views are now kept for ${set.days} days; older days are rolled up into daily totals within the hour.`
	},
	async 'analytics:rollup'(storage) {
		const outcome = await rollUpOldViews(storage, new Date())
		if (!outcome.ok)
			throw new UsageError(`Nothing was rolled up. ${outcome.error} ${fixViewRetention}`)
		const { days, views, beforeDay } = outcome
		if (days === 0) return `Nothing to roll up: no screen views before ${beforeDay}.`
		return `Rolled up ${days} ${days === 1 ? 'day' : 'days'} before ${beforeDay} (${views} screen ${views === 1 ? 'view' : 'views'}) into daily totals.`
	},
	async 'config:show'(storage) {
		return showCurrentConfig(storage)
	},
	async 'user:create'(storage, _args, flags) {
		if (!flags.email || !flags.role)
			throw new UsageError('user:create needs --email and --role (admin or editor).')
		const piped = await readStdin()
		const password = piped || randomBytes(18).toString('base64url')
		const { auth } = await openCliAuth(storage)
		const name = flags.name ?? flags.email.split('@')[0] ?? flags.email
		const result = await createUser(auth, storage, {
			email: flags.email,
			name,
			role: flags.role,
			password,
		})
		if (!result.ok) {
			const lines = Object.entries(result.errors).map(
				([field, messages]) => `  ${field}: ${messages.join(' ')}`,
			)
			throw new UsageError(`The account was not created:\n${lines.join('\n')}`)
		}
		// Without --name the address's first part stands in: readers see it under articles.
		const named = flags.name
			? ''
			: `\nName: "${name}", from the address; readers see it as the author of this account's articles. Change it on its author profile (Authors in /admin), or give --name.`
		const made = `Created ${result.user.role} ${result.user.email}.${named}`
		return piped ? made : `${made}\nPassword (shown once; keep it somewhere safe): ${password}`
	},
	async 'user:reset-link'(storage, _args, flags) {
		if (!flags.email) throw new UsageError('user:reset-link needs --email.')
		const { auth, siteUrl } = await openCliAuth(storage)
		const email = parseResetEmail(flags.email)
		const found = email && (await (await auth.$context).internalAdapter.findUserByEmail(email))
		if (!found) throw new UsageError(`There is no account with the address ${flags.email}.`)
		const link = await createResetLink(auth, siteUrl, found.user.id)
		return `Open this link within the hour to choose a new password for ${found.user.email}:\n${link}`
	},
	// Loaded when asked for: the other commands start without them.
	async export(storage, [file], flags) {
		const { exportCommand } = await import('./portable/commands.ts')
		return exportCommand(storage, file, flags.withPasswords)
	},
	async import(storage, [file]) {
		const { importCommand } = await import('./portable/commands.ts')
		return importCommand(storage, file)
	},
	async 'import:ghost'(storage, [file], flags) {
		const { moveInCommand } = await import('./portable/move-in.ts')
		return moveInCommand(storage, loadConfig(process.env), 'ghost', file, flags)
	},
	async 'import:wordpress'(storage, [file], flags) {
		const { moveInCommand } = await import('./portable/move-in.ts')
		return moveInCommand(storage, loadConfig(process.env), 'wordpress', file, flags)
	},
	async backup(storage, [file]) {
		const { backupCommand } = await import('./portable/commands.ts')
		return backupCommand(storage, file, loadConfig(process.env))
	},
}

async function main(argv: string[]): Promise<number> {
	const { positionals, values } = parseArgs({
		args: argv,
		allowPositionals: true,
		options: {
			draft: { type: 'boolean', default: false },
			'with-passwords': { type: 'boolean', default: false },
			'dry-run': { type: 'boolean', default: false },
			images: { type: 'string' },
			email: { type: 'string' },
			role: { type: 'string' },
			name: { type: 'string' },
			help: { type: 'boolean', short: 'h' },
		},
	})
	const [name, ...args] = positionals
	if (!name || name === 'help' || values.help) {
		process.stdout.write(`${usage}\n`)
		return name || values.help ? 0 : 2
	}
	const command = commands[name]
	if (!command) {
		process.stderr.write(`Unknown command "${name}".\n\n${usage}\n`)
		return 2
	}
	const config = loadConfig(process.env)
	let storage: Storage | undefined
	try {
		storage = openStorage(config, configuredStorageRules(config))
		if (name !== 'db:migrate') await storage.migrate()
		const flags = {
			draft: values.draft ?? false,
			withPasswords: values['with-passwords'] ?? false,
			dryRun: values['dry-run'] ?? false,
			images: values.images,
			email: values.email,
			role: values.role,
			name: values.name,
		}
		const output = await command(storage, args, flags)
		const { stdout, stderr } = typeof output === 'string' ? { stdout: output } : output
		if (stdout) process.stdout.write(`${stdout}\n`)
		if (stderr) process.stderr.write(`${stderr}\n`)
		return 0
	} catch (error) {
		const problem = describeOpenFailure(error, config)
		throw problem ? new UsageError(`Canopy cannot run ${name}: ${problem}`) : error
	} finally {
		await storage?.close()
	}
}

try {
	process.exitCode = await main(process.argv.slice(2))
} catch (error) {
	if (
		error instanceof UsageError ||
		error instanceof ConfigError ||
		error instanceof FrontMatterError ||
		error instanceof CommandError
	) {
		process.stderr.write(`${error.message}\n`)
		process.exitCode = 1
	} else if (storageOutage(error)) {
		// The database is not there (stopped, or DATABASE_URL points elsewhere): one line, no trace.
		process.stderr.write(`${(error as Error).message}\n`)
		process.exitCode = 1
	} else if (
		error instanceof TypeError &&
		'code' in error &&
		String(error.code).startsWith('ERR_PARSE_ARGS')
	) {
		process.stderr.write(`${error.message}\n\n${usage}\n`)
		process.exitCode = 2
	} else {
		throw error
	}
}
