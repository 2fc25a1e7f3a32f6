// The storage port: everything above it speaks these types, never a driver's.
import type { Kysely } from 'kysely'
import type {
	Article,
	ArticleCard,
	ArticleListItem,
	ArticleStatus,
	ArticleStatusFilter,
	ChangeKind,
} from '#app/features/articles/article-types.ts'
import type { ConfigDocument } from '#app/features/remote-config/parameters.ts'
import type { PortableRepository } from './portable-types.ts'
import type { Database } from './schema.ts'
import type { StorageHealth } from './unavailable.ts'

export type Dialect = 'sqlite' | 'postgres'

export interface ArticleWrite {
	slug: string
	title: string
	summary: string
	bodyMarkdown: string
	bodyHtml: string
	coverImageUrl: string | null
	coverImageAlt: string | null
	tags: string[]
	authorName: string
	status: ArticleStatus
	readingMinutes: number
	publishedAt: string | null
	/** For a draft: when the publishing job should make it public. Ignored when published. */
	publishAt?: string | null
	/**
	 * Whether becoming public announces it to push subscribers (once in its life, whatever
	 * happens after). New articles default to true; omitted on a save, the stored choice stays.
	 */
	notify?: boolean
}

export type ArticleUpdateResult =
	| { ok: true; saved: SavedArticle }
	| { ok: false; reason: 'missing' }
	/** Someone saved a newer version since this edit began: current is what they saved. */
	| { ok: false; reason: 'conflict'; current: Article }
	| { ok: false; reason: 'slug-taken' }

export type ArticleCreateResult =
	| { ok: true; saved: SavedArticle }
	| { ok: false; reason: 'slug-taken' }
	/** Made by an earlier create with the same key; nothing was made now. As it stands now. */
	| { ok: false; reason: 'repeated'; article: Article }
	/** The key came before with another request. */
	| { ok: false; reason: 'key-reused' }

/** A create sent with an Idempotency-Key: made once for its caller, however often it is sent (for a day). */
export interface RepeatableRequest {
	userId: string
	key: string
	/** The request's body, hashed: the same key with another body is refused. */
	fingerprint: string
}

export interface EditorListOptions {
	/** Words matched, case-insensitively, against the title, slug and summary. */
	query?: string
	status?: ArticleStatusFilter
	limit: number
	offset: number
}

export interface ListCursor {
	publishedAt: string
	id: number
}

export interface SavedArticle {
	article: Article
	/** The change written to the feed with it, if the public saw a difference. */
	change: Change | null
}

export interface ArticleRepository {
	findBySlug(slug: string): Promise<Article | undefined>
	findPublishedBySlug(slug: string): Promise<Article | undefined>
	/** Published articles, newest first, strictly after the cursor when one is given. */
	listPublished(options: { limit: number; after?: ListCursor }): Promise<ArticleCard[]>
	listPublishedByIds(ids: number[]): Promise<ArticleCard[]>
	/** Published articles with their bodies, newest first: feeds and sitemaps. */
	listPublishedFull(limit: number): Promise<Article[]>
	count(): Promise<number>
	/** Creates or updates the article with this slug and records the public change, atomically. */
	saveBySlug(write: ArticleWrite): Promise<SavedArticle>
	/** Deletes the article; records a removal when it was public. */
	deleteBySlug(slug: string): Promise<Change | null>
	findById(id: number): Promise<Article | undefined>
	/** Whether another article than `exceptId` holds this slug. */
	slugTaken(slug: string, exceptId?: number): Promise<boolean>
	/** Every article, drafts too, most recently edited first: the editor's list. */
	listForEditor(options: EditorListOptions): Promise<{ items: ArticleListItem[]; total: number }>
	/** With `request`, a second create with the same key answers with the first article. */
	create(write: ArticleWrite, request?: RepeatableRequest): Promise<ArticleCreateResult>
	/** Saves over version `expectedVersion` only: a newer version is never overwritten. */
	update(id: number, expectedVersion: number, write: ArticleWrite): Promise<ArticleUpdateResult>
	/** Deletes the article when it is still at `expectedVersion` (any version when omitted). */
	deleteById(
		id: number,
		expectedVersion?: number,
	): Promise<{ ok: true; change: Change | null } | { ok: false; reason: 'missing' | 'conflict' }>
	/**
	 * Publishes scheduled drafts whose time has come, each in its own committed change. Safe to
	 * call from several instances at once: each article is published by exactly one of them.
	 */
	publishDue(now: Date, limit: number): Promise<Article[]>
}

export interface UploadMeta {
	/** SHA-256 of the bytes, hex: the image's address. */
	hash: string
	mime: string
	size: number
	width: number | null
	height: number | null
	createdAt: string
}

export interface UploadRepository {
	/** Stores the image unless the same bytes are there already; returns what is stored. */
	put(
		upload: Omit<UploadMeta, 'createdAt'> & { bytes: Uint8Array; createdBy: string | null },
	): Promise<UploadMeta>
	get(hash: string): Promise<{ meta: UploadMeta; bytes: Uint8Array } | undefined>
	/** Up to `limit` uploads with ids from `from` up to (not including) `before`, oldest first. */
	listByIds(
		from: number,
		before: number,
		limit: number,
	): Promise<{ id: number; hash: string; mime: string; bytes: Uint8Array }[]>
	/**
	 * Puts new bytes under an image's address (made again without its metadata): its URL, which
	 * pages already use, stays. False when there is no such image.
	 */
	replaceBytes(
		hash: string,
		image: { bytes: Uint8Array; width: number; height: number },
	): Promise<boolean>
	/** Deletes an image (one that cannot be stored safely); false when there was none. */
	delete(hash: string): Promise<boolean>
}

export interface ApiKeyRecord {
	id: number
	name: string
	/** The first characters of the key, to tell keys apart; the key itself is never stored. */
	prefix: string
	createdBy: string
	createdAt: string
	lastUsedAt: string | null
	revokedAt: string | null
}

export interface ApiKeyRepository {
	create(key: {
		name: string
		keyHash: string
		prefix: string
		createdBy: string
	}): Promise<ApiKeyRecord>
	list(): Promise<ApiKeyRecord[]>
	/** The key with this hash when it has not been revoked; marks it used. */
	useByHash(keyHash: string): Promise<ApiKeyRecord | undefined>
	revoke(id: number): Promise<boolean>
}

export interface RateLimitHit {
	allowed: boolean
	/** Hits counted in the current window, this one included. */
	count: number
	/** When the window ends, in ms since the epoch. */
	resetAt: number
}

export interface RateLimitRepository {
	/**
	 * Counts one hit against `key` in a fixed window, atomically (instances share the count),
	 * and says whether it is within `max`.
	 */
	hit(key: string, max: number, windowMs: number, now?: number): Promise<RateLimitHit>
	clear(key: string): Promise<void>
	/** Deletes counters whose window began before `before` (ms since the epoch); returns how many. */
	prune(before: number): Promise<number>
}

export interface Change {
	id: number
	topic: string
	entityId: string
	kind: ChangeKind
	createdAt: string
}

export interface ChangeRepository {
	latestId(): Promise<number>
	/** Ids at or below this were pruned; a reader that far behind must start over. */
	horizon(): Promise<number>
	after(id: number, limit: number): Promise<Change[]>
	/** Keeps the newest `keep` changes and moves the horizon past the rest. */
	prune(keep: number): Promise<number>
	/**
	 * Calls `wake` soon after any change commits, in this process or another one on the same
	 * database. The caller reads the table to learn what changed. Returns a stop function.
	 */
	watch(wake: () => void): () => void
}

export interface SettingsRepository {
	all(): Promise<Record<string, string>>
	set(values: Record<string, string>): Promise<void>
	/**
	 * Stores the value unless the key has one, and returns what is stored: instances starting
	 * together agree on one value (a generated secret). Not announced on the feed: not public.
	 */
	setIfAbsent(key: string, value: string): Promise<string>
	/** Deletes the keys that start with `prefix`, except those in `keep`; returns how many. */
	deleteByPrefix(prefix: string, keep: string[]): Promise<number>
}

export interface ContactMessage {
	id: number
	name: string
	email: string
	subject: string
	message: string
	createdAt: string
	readAt: string | null
	archivedAt: string | null
}

export interface NewContactMessage {
	/** From the form: the same key again (a double-click, a resubmission) stores nothing new. */
	idempotencyKey: string
	name: string
	email: string
	subject: string
	message: string
}

export interface OutgoingMail {
	/** What the mail is for, e.g. contact-notification, invite, password-reset. */
	kind: string
	recipient: string
	subject: string
	textBody: string
	replyTo: string | null
}

export interface QueuedMail extends OutgoingMail {
	id: number
	attempts: number
	createdAt: string
	nextAttemptAt: string
	lastError: string | null
	sentAt: string | null
	/** When the outbox gave up on it after its last retry; it is not tried again. */
	abandonedAt: string | null
}

export interface MessageListOptions {
	/** Words matched, case-insensitively, against the sender's name and address, the subject and the text. */
	query?: string
	box: 'inbox' | 'archived'
	limit: number
	offset: number
}

export interface MessageRepository {
	/**
	 * Stores the message, the mails announcing it and its change on the feed, in one transaction.
	 * A key seen before stores nothing and answers the first message with `created: false`.
	 */
	create(
		message: NewContactMessage,
		mails: OutgoingMail[],
	): Promise<{ message: ContactMessage; created: boolean }>
	list(options: MessageListOptions): Promise<{ items: ContactMessage[]; total: number }>
	get(id: number): Promise<ContactMessage | undefined>
	/** False when there is no such message. Each change goes on the feed (topic `messages`). */
	setRead(id: number, read: boolean): Promise<boolean>
	setArchived(id: number, archived: boolean): Promise<boolean>
	delete(id: number): Promise<boolean>
	/** Unread messages in the inbox (not archived). */
	unreadCount(): Promise<number>
	/** The retention job: deletes messages received before `cutoff`; returns how many. */
	deleteOlderThan(cutoff: Date): Promise<number>
}

export interface OutboxRepository {
	enqueue(mails: OutgoingMail[]): Promise<void>
	/**
	 * Takes up to `limit` mails that are due and not leased, and leases them for `leaseMs` (their
	 * attempt count goes up by one). Workers on several instances never take the same mail at
	 * once; a worker that dies leaves its lease to run out, and the mail is taken again.
	 */
	claimDue(now: Date, leaseMs: number, limit: number): Promise<QueuedMail[]>
	markSent(id: number, now: Date): Promise<void>
	/** Records the failure and when to try again; the lease is released. */
	markFailed(id: number, error: string, nextAttemptAt: Date): Promise<void>
	/**
	 * Gives up on the mail after its last failure: it is kept, with the error, but never claimed
	 * again. The lease is released.
	 */
	abandon(id: number, error: string, now: Date): Promise<void>
	/** Everything still to be sent (neither sent nor given up on), oldest first (tests, operations). */
	pending(): Promise<QueuedMail[]>
	/** The mails given up on, oldest first (tests, operations). */
	abandoned(): Promise<QueuedMail[]>
}

/** The viewport's width class, as the browser reports it: the dashboard's device classes. */
export type DeviceClass = 'mobile' | 'tablet' | 'desktop'

/** One screen view as stored: nothing in it identifies a reader. */
export interface ScreenViewWrite {
	/** When it was received. */
	at: Date
	/** The visitor hash of the day (app/features/privacy/visitor-hash.server.ts). */
	visitor: string
	/** The route's screen name, e.g. `articles`. */
	screen: string
	/** The path without its query string. */
	path: string
	title: string
	/** The page the reader came from within the site; '' on arrival. */
	previousPath: string
	/** The other site the reader arrived from, host only; '' for none. */
	referrerHost: string
	/** The `utm_*` parameters of the address (the `ref` parameter counts as a source). */
	utmSource: string
	utmMedium: string
	utmCampaign: string
	device: DeviceClass
	/** The primary language subtag, lower case (`fr`); '' when unknown. */
	language: string
}

/** UTC days, yyyy-mm-dd, both included. */
export interface DayRange {
	from: string
	to: string
}

export interface AnalyticsTotals {
	/** Sum of each day's distinct visitors (a visitor hash lasts one day). */
	visitors: number
	/** Screen views. */
	views: number
	/**
	 * Visits: runs of one visitor's views with no gap over 30 minutes (exactly 30 minutes still
	 * continues one), within a UTC day (a visitor hash lasts a day).
	 */
	visits: number
}

export interface AnalyticsDay extends AnalyticsTotals {
	day: string
}

/**
 * What a breakdown groups by. `views` counts screen views for page, article, device and
 * language; visits for entry, exit, referrer and campaign.
 */
export type AnalyticsDimension =
	| 'page'
	| 'article'
	| 'entry'
	| 'exit'
	| 'referrer'
	| 'campaign'
	| 'device'
	| 'language'

export interface AnalyticsRow {
	/**
	 * What the row is: [path] for pages, entries and exits; [path, latest title] for articles;
	 * [host] for referrers ('' = direct or unknown); [campaign, source, medium] for campaigns;
	 * [device class]; [language] ('' = unknown).
	 */
	values: string[]
	visitors: number
	views: number
}

export interface AnalyticsRepository {
	/** Stores a batch of screen views in one transaction (one disk sync for the lot). */
	record(views: ScreenViewWrite[]): Promise<void>
	/**
	 * Every day of the range, oldest first, zeros for days without views. Like every read of a
	 * range, throws a RangeError unless both ends are real days (yyyy-mm-dd) and from <= to.
	 */
	daily(range: DayRange): Promise<AnalyticsDay[]>
	totals(range: DayRange): Promise<AnalyticsTotals>
	/** The top `limit` rows, most visitors first (then most views, then values A–Z by code point). */
	breakdown(range: DayRange, dimension: AnalyticsDimension, limit: number): Promise<AnalyticsRow[]>
	/** Distinct visitors with a view at or after `since`. */
	activeVisitors(since: Date): Promise<number>
	/**
	 * Rolls every day before `beforeDay` that still has raw views into daily totals and deletes
	 * those views, a day per transaction. Every figure above is the same before and after. Safe
	 * to run from several instances at once: a day is rolled up once.
	 */
	rollUp(beforeDay: string): Promise<{ days: number; views: number }>
	/** Raw views stored (tests, operations). */
	countViews(): Promise<number>
}

export interface PushSubscriptionRecord {
	id: number
	/** The push service's URL for this browser: a secret, as anyone who has it can push to it. */
	endpoint: string
	/** The browser's P-256 public key (65 bytes, uncompressed), base64url. */
	p256dh: string
	/** The browser's 16-byte authentication secret, base64url. */
	auth: string
	/** When the push service will stop taking messages for it; null: no known end. */
	expirationTime: string | null
	createdAt: string
	/** When the browser last sent it (it re-sends every 7 days and when it changes). */
	refreshedAt: string
}

export type NewPushSubscription = Pick<
	PushSubscriptionRecord,
	'endpoint' | 'p256dh' | 'auth' | 'expirationTime'
>

/**
 * pending: to send (again at nextAttemptAt); sent: the push service took it (2xx); gone: the
 * subscription no longer exists (404/410); failed: refused for good (400/401/403/413, or out of
 * retries); cancelled: the article stopped being public, or the subscription went, first.
 */
export type PushDeliveryState = 'pending' | 'sent' | 'gone' | 'failed' | 'cancelled'

export interface PushDelivery {
	id: number
	articleId: number
	/** null once the subscription is deleted: the row stays for the article's results. */
	subscriptionId: number | null
	state: PushDeliveryState
	/** Claims so far: each claim counts one attempt. */
	attempts: number
	createdAt: string
	nextAttemptAt: string
	/** The push service's last HTTP status; null when it never answered (a timeout, a refused connection). */
	lastStatus: number | null
	lastError: string | null
	/** When it left pending. */
	finishedAt: string | null
}

/** A delivery leased to one worker, with what it needs to encrypt and send the payload. */
export interface ClaimedPushDelivery {
	id: number
	/** This attempt included. */
	attempts: number
	createdAt: string
	subscription: Pick<PushSubscriptionRecord, 'id' | 'endpoint' | 'p256dh' | 'auth'>
	article: {
		id: number
		slug: string
		title: string
		summary: string
		coverImageUrl: string | null
		coverImageAlt: string | null
	}
}

export type PushDeliveryCounts = Record<PushDeliveryState, number>

export interface PushRepository {
	/**
	 * Stores the subscription, or refreshes the one with the same endpoint (keys, expiration and
	 * refreshedAt replaced). `created` says which; concurrent saves of one endpoint store one row.
	 */
	saveSubscription(
		subscription: NewPushSubscription,
		now: Date,
	): Promise<{ subscription: PushSubscriptionRecord; created: boolean }>
	findSubscription(endpoint: string): Promise<PushSubscriptionRecord | undefined>
	/**
	 * Deletes the subscription and cancels its pending deliveries, in one transaction; its
	 * finished deliveries stay. False when there was none.
	 */
	deleteSubscription(endpoint: string, now: Date): Promise<boolean>
	/** Subscriptions that can still be sent to (not past their expiration time). */
	subscriberCount(now?: Date): Promise<number>
	/**
	 * Takes up to `limit` pending deliveries that are due and not leased, oldest first, and
	 * leases them for `leaseMs` (attempts go up by one). Workers on several instances never take
	 * the same delivery at once (FOR UPDATE SKIP LOCKED on PostgreSQL); a worker that dies leaves
	 * its lease to run out, and the delivery is taken again. Deliveries are written by the
	 * article repository, in the transaction that makes an article public for the first time
	 * (one per subscription, not for an article saved with notify false), and cancelled in the
	 * one that makes it stop being public; deleting an article deletes its deliveries.
	 */
	claimDue(now: Date, leaseMs: number, limit: number): Promise<ClaimedPushDelivery[]>
	/**
	 * What the push service answered to a claimed delivery; each releases the lease. markSent,
	 * markFailed and markGone also record over a delivery cancelled while it was being sent (it
	 * went out all the same); none changes a delivery that has a result already.
	 */
	markSent(id: number, status: number, now: Date): Promise<void>
	/**
	 * Leaves it pending, to be claimed again at `nextAttemptAt` (429, 5xx, a timeout). A
	 * delivery cancelled meanwhile stays cancelled.
	 */
	retryLater(id: number, status: number | null, error: string, nextAttemptAt: Date): Promise<void>
	/** Refused for good (400, 401, 403, 413, or out of retries): never claimed again. */
	markFailed(id: number, status: number | null, error: string, now: Date): Promise<void>
	/**
	 * The subscription is gone (404, 410): deletes it and cancels its other pending deliveries,
	 * in one transaction. This row is kept, as `gone`, for the article's results.
	 */
	markGone(id: number, status: number, now: Date): Promise<void>
	/**
	 * Deletes, with their pending deliveries cancelled as deleteSubscription does, the
	 * subscriptions past their expiration time at `now` and those the browser has not sent again
	 * since `staleBefore`. Returns how many went.
	 */
	deleteDeadSubscriptions(now: Date, staleBefore: Date): Promise<number>
	/**
	 * Deletes the deliveries that left pending before `finishedBefore`, adding them to their
	 * article's totals in the same transaction, so resultsByArticle counts the same after.
	 * Running it twice, or on two instances at once, counts each delivery once. Returns how many
	 * rows were retired.
	 */
	retireDeliveries(finishedBefore: Date): Promise<number>
	/**
	 * Deliveries of each article by state, retired ones included; every asked id is in the map,
	 * zeros included.
	 */
	resultsByArticle(articleIds: number[]): Promise<Map<number, PushDeliveryCounts>>
	/** An article's deliveries not yet retired, oldest first (tests, operations). */
	deliveriesOf(articleId: number): Promise<PushDelivery[]>
}

/** One published configuration (docs/decisions/013-remote-config.md). */
export interface ConfigVersion {
	/** 1, 2, 3 … in publishing order. */
	id: number
	document: ConfigDocument
	createdAt: string
	/** The publisher's user id; null: the CLI, or an account since deleted. */
	createdBy: string | null
	createdByName: string
	/** What changed, in words, made by the publisher. */
	summary: string
	/** Set by a rollback: the version whose document this copies. */
	restoredFrom: number | null
}

export interface ConfigPublish {
	document: ConfigDocument
	/** The version the document was built on; 0: none published yet. */
	baseVersion: number
	createdBy: string | null
	createdByName: string
	summary: string
	restoredFrom?: number | null
}

export interface ConfigRepository {
	current(): Promise<ConfigVersion | undefined>
	get(id: number): Promise<ConfigVersion | undefined>
	/** Newest first; `before`: only versions older than this id. */
	list(options: { limit: number; before?: number }): Promise<ConfigVersion[]>
	/**
	 * Publishes `document` as the next version if the current one is still `baseVersion`
	 * (0: none yet); otherwise { ok: false, current }. In the same transaction it appends a
	 * change (topic 'config', entity id = the new version's id, kind 'modified'), so every
	 * instance's page cache empties and open pages hear of it. Of concurrent publishes on one
	 * base, exactly one succeeds.
	 */
	publish(
		input: ConfigPublish,
		now: Date,
	): Promise<{ ok: true; version: ConfigVersion } | { ok: false; current: number }>
}

/** A periodic job's row (docs/decisions/017-jobs-across-instances.md). */
export interface JobRun {
	/** e.g. `message-retention`. */
	name: string
	/** When the next pass is due; a pass claimed before then is not run. */
	nextRunAt: string
	/** Until when the holder's claim lasts; null when nobody runs a pass. */
	leaseUntil: string | null
	/** The process that holds (or last held) the lease: host:pid:random. */
	holder: string | null
	/** Passes finished, by any instance. */
	runs: number
	lastStartedAt: string | null
	lastFinishedAt: string | null
}

export interface JobRunRepository {
	/**
	 * Leases the job to `holder` until `now + leaseMs` if a pass is due (a job never run is due)
	 * and no lease is live. One conditional UPDATE: of instances claiming at the same moment,
	 * exactly one gets it. Returns the row as it is now, claimed or not.
	 */
	claim(
		name: string,
		holder: string,
		now: Date,
		leaseMs: number,
	): Promise<{ claimed: boolean; run: JobRun }>
	/** Extends the holder's lease; false when it holds it no longer (it ran out and was taken). */
	renew(name: string, holder: string, leaseUntil: Date): Promise<boolean>
	/**
	 * The holder's pass is done: the lease is released, the next pass is due at `nextRunAt`, and
	 * runs goes up by one. False, and nothing changed, when it holds the lease no longer.
	 */
	finish(name: string, holder: string, nextRunAt: Date, now: Date): Promise<boolean>
	/** Every job's row, by name (operations, tests). */
	list(): Promise<JobRun[]>
}

export interface Storage {
	readonly dialect: Dialect
	/** Whether the database can be reached now; while not, every call throws StorageUnavailable. */
	readonly health: StorageHealth
	/**
	 * The query builder, for better-auth's adapter only (server/auth.ts): sign-in keeps its
	 * own tables (0002_auth) and reads them itself. Everything else goes through repositories
	 * (tests may read raw rows with it, on either database).
	 */
	readonly authDatabase: { db: Kysely<Database>; type: Dialect }
	readonly articles: ArticleRepository
	readonly changes: ChangeRepository
	readonly settings: SettingsRepository
	readonly uploads: UploadRepository
	readonly apiKeys: ApiKeyRepository
	readonly rateLimits: RateLimitRepository
	readonly messages: MessageRepository
	readonly outbox: OutboxRepository
	readonly analytics: AnalyticsRepository
	readonly push: PushRepository
	readonly config: ConfigRepository
	/** Export, import and backup of the whole site (docs/decisions/015-portable-export.md). */
	readonly portable: PortableRepository
	readonly jobs: JobRunRepository
	/** Applies pending migrations; returns the names applied. */
	migrate(): Promise<string[]>
	/** Throws when the database cannot answer. */
	ping(): Promise<void>
	close(): Promise<void>
}
