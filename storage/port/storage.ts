// The storage port: everything above it speaks these types, never a driver's. One file per
// topic; Storage gathers the repositories of every topic.
import type { AccountRepository, ApiKeyRepository, RateLimitRepository } from './accounts.ts'
import type { AnalyticsRepository } from './analytics.ts'
import type { ArticleRepository, ArticleRules } from './articles.ts'
import type { ChangeRepository } from './changes.ts'
import type { ConfigRepository } from './config.ts'
import type { MessageRepository } from './contact.ts'
import type { JobRunRepository } from './jobs.ts'
import type { OutboxRepository } from './mail.ts'
import type { MoveInRepository } from './move-in.ts'
import type { NewsletterRepository } from './newsletter.ts'
import type { OperationsRepository } from './operations.ts'
import type { PortableRepository } from './portable.ts'
import type { PushRepository } from './push.ts'
import type { RedirectRepository } from './redirects.ts'
import type { RevisionRepository } from './revisions.ts'
import type { SearchRepository } from './search.ts'
import type { SettingsRepository } from './settings.ts'
import type { AuthorRepository, TagRepository } from './terms.ts'
import type { StorageHealth } from './unavailable.ts'
import type { UploadRepository } from './uploads.ts'
import type { WebhookRepository } from './webhooks.ts'

export type Dialect = 'sqlite' | 'postgres'

export interface Storage {
	readonly dialect: Dialect
	/** Whether the database can be reached now; while not, every call throws StorageUnavailable. */
	readonly health: StorageHealth
	readonly articles: ArticleRepository
	/** Every article's history, and the edits to a published one that wait for Update. */
	readonly revisions: RevisionRepository
	/** Articles and pages by their words (docs/decisions/030-search.md). */
	readonly search: SearchRepository
	readonly changes: ChangeRepository
	readonly settings: SettingsRepository
	readonly uploads: UploadRepository
	/** Addresses that moved: renamed articles' and pages', and admins' own. */
	readonly redirects: RedirectRepository
	/** Tags and author profiles, each with a page (docs/decisions/026-tags-and-authors.md). */
	readonly tags: TagRepository
	readonly authors: AuthorRepository
	/** Staff accounts (better-auth signs them in; the team page manages them). */
	readonly accounts: AccountRepository
	readonly apiKeys: ApiKeyRepository
	readonly rateLimits: RateLimitRepository
	readonly messages: MessageRepository
	readonly outbox: OutboxRepository
	readonly analytics: AnalyticsRepository
	readonly push: PushRepository
	/** The email newsletter's subscribers, digests and deliveries (docs/decisions/032-newsletter.md). */
	readonly newsletter: NewsletterRepository
	/** Endpoints admins register and the deliveries of events to them (docs/decisions/037-webhooks.md). */
	readonly webhooks: WebhookRepository
	readonly config: ConfigRepository
	/** Export, import and backup of the whole site (docs/decisions/015-portable-export.md). */
	readonly portable: PortableRepository
	/** Imports from Ghost or WordPress started on the admin page (docs/decisions/034-moving-in.md). */
	readonly moveIns: MoveInRepository
	readonly jobs: JobRunRepository
	/** Queue depths and the connection pool, for monitoring (docs/decisions/035-metrics.md). */
	readonly operations: OperationsRepository
	/** Applies pending migrations; returns the names applied. */
	migrate(): Promise<string[]>
	/** Throws when the database cannot answer. */
	ping(): Promise<void>
	close(): Promise<void>
}

/** The features' decisions a write carries out, given to the storage when it is opened. */
export interface StorageRules {
	articles: ArticleRules
}
