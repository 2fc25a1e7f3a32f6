// Every repository both databases share, made once over a Kysely instance: the adapters
// (sqlite/, postgres/) add only what differs, the change feed's wake-ups and the health. A
// repository is a factory closing over its Kysely instance: read its methods, each short, as the
// units, not the factory.
import type { Kysely } from 'kysely'
import type { PoolState } from '../port/operations.ts'
import type { Storage, StorageRules } from '../port/storage.ts'
import { createAccountRepository } from './account-repositories.ts'
import { createAnalyticsRepository } from './analytics-repositories.ts'
import { createArticleRepository } from './article-repository.ts'
import type { ChangeHooks } from './change-repository.ts'
import { createConfigRepository } from './config-repositories.ts'
import { createMessageRepository, createOutboxRepository } from './contact-repositories.ts'
import { createApiKeyRepository, createRateLimitRepository } from './editor-repositories.ts'
import { createJobRunRepository } from './job-repositories.ts'
import { createMoveInRepository } from './move-in-repository.ts'
import { newsletterDeliveries } from './newsletter-deliveries.ts'
import { newsletterSubscribers } from './newsletter-subscribers.ts'
import { createOperationsRepository } from './operations-repository.ts'
import { createPortableRepository, type PortableDriver } from './portable-repository.ts'
import { createPushRepository } from './push-repositories.ts'
import { createRedirectRepository } from './redirect-repository.ts'
import { createRevisionRepository } from './revision-repository.ts'
import type { Database } from './schema.ts'
import { createSearchRepository } from './search-repository.ts'
import { createSettingsRepository } from './settings-repository.ts'
import { createAuthorRepository, createTagRepository } from './term-repositories.ts'
import { createUploadRepository } from './upload-repository.ts'
import { createWebhookRepository } from './webhook-repository.ts'

export type SharedRepositories = Omit<
	Storage,
	'dialect' | 'health' | 'changes' | 'migrate' | 'ping' | 'close'
>

export function createRepositories(
	db: Kysely<Database>,
	dialect: Storage['dialect'],
	hooks: ChangeHooks,
	portable: PortableDriver,
	rules: StorageRules,
	pool: () => PoolState | null = () => null,
): SharedRepositories {
	return {
		articles: createArticleRepository(db, hooks, dialect, rules.articles),
		revisions: createRevisionRepository(db, dialect),
		search: createSearchRepository(db, dialect),
		settings: createSettingsRepository(db, hooks),
		uploads: createUploadRepository(db, dialect),
		redirects: createRedirectRepository(db, hooks),
		tags: createTagRepository(db, dialect, hooks, rules.articles),
		authors: createAuthorRepository(db, dialect, hooks, rules.articles),
		accounts: createAccountRepository(db, dialect),
		apiKeys: createApiKeyRepository(db),
		rateLimits: createRateLimitRepository(db),
		messages: createMessageRepository(db, dialect, hooks),
		outbox: createOutboxRepository(db, dialect),
		analytics: createAnalyticsRepository(db, dialect),
		push: createPushRepository(db, dialect),
		newsletter: { ...newsletterSubscribers(db, dialect), ...newsletterDeliveries(db, dialect) },
		webhooks: createWebhookRepository(db, dialect),
		config: createConfigRepository(db, hooks),
		portable: createPortableRepository(db, portable, rules.articles),
		moveIns: createMoveInRepository(db, dialect),
		jobs: createJobRunRepository(db),
		operations: createOperationsRepository(db, dialect, pool),
	}
}
