// A new article on PostgreSQL in one statement (docs/decisions/031-one-statement-create.md):
// its tags and authors found, the row with its search words, the links, its first revision, its
// push deliveries, its newsletter mail, its webhook deliveries and its change on the live feed,
// committed together without BEGIN and COMMIT.
// A round trip costs about as much as a small statement's work there, and the editor's Publish of
// a new article made seven. The text never changes, so the pool keeps it prepared
// (guarded-pool.ts): planned once per connection.
// A translation (translationOf given) is not made here: its original must be read under a lock
// and refused with an answer of its own before anything is written (article-translations.ts),
// which one statement cannot do and still tell a refusal from an unknown tag. It is the rarer
// create, and takes the transaction in article-repository.ts; here translation_of stays NULL.
import { type Kysely, sql } from 'kysely'
import type { Article, ArticleRules, ArticleWrite, Term } from '../port/articles.ts'
import type { Change, ChangeKind } from '../port/changes.ts'
import { type Announcement, articleColumns, topicOf } from './article-save.ts'
import { type TermKind, wantedTerms } from './article-terms.ts'
import type { ChangeHooks } from './change-repository.ts'
import { prepared } from './prepared.ts'
import { articleRowColumns, toArticle, toChange } from './rows.ts'
import type { Database } from './schema.ts'
import { searchVector } from './search-repository.ts'
import { articleEventData, articleEventType, newMessageId } from './webhook-events.ts'

const returned = sql.join(articleRowColumns.map((column) => sql.ref(`made.${column}`)))

/**
 * The article made, or undefined when the statement wrote nothing because a tag or author it
 * names is not known yet (or only by a merged tag's old address), or when it is a translation
 * (see above): the caller then takes the transaction that makes it.
 */
export async function createInOneStatement(
	db: Kysely<Database>,
	postgres: NonNullable<ChangeHooks['postgres']>,
	rules: ArticleRules,
	write: ArticleWrite,
	kind: ChangeKind | null,
	announced: Announcement,
	now: string,
): Promise<{ article: Article; change: Change | null } | undefined> {
	if ((write.translationOf ?? null) !== null) return undefined
	const wanted = [
		...wantedTerms(rules, 'tag', write.tags),
		...wantedTerms(rules, 'author', write.authors),
	]
	const columns = articleColumns(write)
	const rowKind = write.kind ?? 'article'
	// The names as written: a known term found by its address or by its name has the same words.
	const named = (kind: TermKind) =>
		wanted.filter(
			(one, i) =>
				one.kind === kind &&
				wanted.findIndex((other) => other.kind === kind && other.slug === one.slug) === i,
		)
	const search = searchVector({ ...write, tags: named('tag'), authors: named('author') })
	const by = write.revision?.by ?? { id: null, name: '' }
	const revisionKind =
		write.revision?.kind ?? (write.status === 'published' ? 'published' : 'saved')
	const event = write.webhooks === false ? null : articleEventType(kind, rowKind)
	// The article's event data but its id, which the statement adds.
	const { id: _, ...eventData } = articleEventData({
		id: 0,
		...columns,
		language: write.language ?? '',
		updated_at: now,
	})
	// Every parameter is cast: in a SELECT list PostgreSQL would type it as text.
	const { rows } = await sql<Record<string, unknown>>`${prepared}
		WITH wanted AS (
			SELECT * FROM unnest(${wanted.map((one) => one.kind)}::text[],
				${wanted.map((one) => one.slug)}::text[], ${wanted.map((one) => one.name)}::text[])
				WITH ORDINALITY AS w(kind, slug, name, n)
		), matched AS (
			-- As resolveWriteTerms: the one at the name's address before one merely named alike.
			SELECT w.kind, w.n, m.id, m.name, m.slug FROM wanted w LEFT JOIN LATERAL (
				SELECT id, name, slug, slug = w.slug AS at_address FROM tags
				WHERE w.kind = 'tag' AND (slug = w.slug OR name = w.name)
				UNION ALL
				SELECT id, name, slug, slug = w.slug FROM authors
				WHERE w.kind = 'author' AND (slug = w.slug OR name = w.name)
				ORDER BY at_address DESC LIMIT 1
			) AS m ON true
		), terms AS (
			-- Names that lead to the same one count once, where first named.
			SELECT kind, id, name, slug, row_number() OVER (PARTITION BY kind ORDER BY n) - 1 AS position
			FROM (SELECT DISTINCT ON (kind, id) * FROM matched ORDER BY kind, id, n) AS first_named
		), made AS (
			INSERT INTO articles (slug, title, summary, body_markdown, body_html, cover_image_url,
				cover_image_alt, cover_image_width, cover_image_height, status, reading_minutes,
				published_at, publish_at, notify, email, kind, notified_at, emailed_at, created_at,
				updated_at, seo_title,
				seo_description, social_image_url, language, search)
			SELECT ${columns.slug}::text, ${columns.title}::text, ${columns.summary}::text,
				${columns.body_markdown}::text, ${columns.body_html}::text,
				${columns.cover_image_url}::text, ${columns.cover_image_alt}::text,
				${columns.cover_image_width}::integer, ${columns.cover_image_height}::integer,
				${columns.status}::text, ${columns.reading_minutes}::integer,
				${columns.published_at}::timestamptz, ${columns.publish_at}::timestamptz,
				coalesce(${write.notify ?? null}::boolean, true),
				coalesce(${write.email ?? null}::boolean, true), ${rowKind}::text,
				${announced.push ? now : null}::timestamptz, ${announced.mail ? now : null}::timestamptz,
				${now}::timestamptz, ${now}::timestamptz,
				coalesce(${write.seoTitle ?? null}::text, ''),
				coalesce(${write.seoDescription ?? null}::text, ''),
				${write.socialImageUrl ?? null}::text,
				coalesce(${write.language ?? null}::text, ''),
				${search}
			WHERE NOT EXISTS (SELECT 1 FROM matched WHERE id IS NULL)
			RETURNING ${sql.join(articleRowColumns.map((column) => sql.ref(column)))}
		), linked_tags AS (
			INSERT INTO article_tags (article_id, tag_id, position)
			SELECT made.id, terms.id, terms.position FROM made, terms WHERE terms.kind = 'tag'
		), linked_authors AS (
			INSERT INTO article_authors (article_id, author_id, position)
			SELECT made.id, terms.id, terms.position FROM made, terms WHERE terms.kind = 'author'
		), revised AS (
			INSERT INTO article_revisions (article_id, kind, version, user_id, by_name, status, slug,
				title, summary, body_markdown, cover_image_url, cover_image_alt, tags, authors, seo_title,
				seo_description, social_image_url, changed, restored_from, created_at, saved_at)
			SELECT made.id, ${revisionKind}::text, made.version, ${by.id}::text, ${by.name}::text,
				made.status, made.slug, made.title, made.summary, made.body_markdown,
				made.cover_image_url, made.cover_image_alt,
				coalesce((SELECT jsonb_agg(name ORDER BY position) FROM terms WHERE kind = 'tag'), '[]'),
				coalesce((SELECT jsonb_agg(name ORDER BY position) FROM terms WHERE kind = 'author'), '[]'),
				made.seo_title, made.seo_description, made.social_image_url, '',
				${write.revision?.restoredFrom ?? null}::bigint, ${now}::timestamptz, ${now}::timestamptz
			FROM made
		), delivered AS (
			INSERT INTO push_deliveries (article_id, subscription_id, created_at, next_attempt_at)
			SELECT made.id, s.id, made.notified_at, made.notified_at
			FROM made JOIN push_subscriptions s
				ON s.expiration_time IS NULL OR s.expiration_time > made.notified_at
			WHERE made.notified_at IS NOT NULL
			RETURNING 1
		), mailed AS (
			-- As articleMailSend (newsletter-shared.ts): one row; the worker writes the deliveries.
			INSERT INTO newsletter_sends (article_id, created_at)
			SELECT made.id, made.emailed_at FROM made
			WHERE made.emailed_at IS NOT NULL AND made.kind = 'article'
			RETURNING 1
		), hooked AS (
			-- As webhookEvent (webhook-events.ts): one delivery per endpoint on that wants it.
			INSERT INTO webhook_deliveries (endpoint_id, message_id, event_type, payload, created_at,
				next_attempt_at)
			SELECT e.id, ${newMessageId()}::text, ${event}::text,
				(jsonb_build_object('id', made.id) || ${JSON.stringify(eventData)}::jsonb)::text,
				${now}::timestamptz, ${now}::timestamptz
			FROM made, webhook_endpoints e
			WHERE ${event}::text IS NOT NULL AND e.enabled AND e.id IN (
				SELECT endpoint_id FROM webhook_endpoint_events WHERE event_type = ${event}::text)
			RETURNING 1
		), locked AS (
			-- After every delivery is written (the count reads them all), and only for a change of
			-- an article that was made: the change lock orders the feed's ids (change-repository.ts).
			SELECT pg_advisory_xact_lock(${postgres.lock}::bigint)
			FROM (SELECT count(*) FROM delivered) AS all_delivered,
				(SELECT count(*) FROM mailed) AS all_mailed, (SELECT count(*) FROM hooked) AS all_hooked
			WHERE ${kind}::text IS NOT NULL AND EXISTS (SELECT 1 FROM made)
		), changed AS (
			INSERT INTO changes (topic, entity_id, kind, created_at)
			SELECT ${topicOf(rowKind)}::text, made.id::text, ${kind}::text, ${now}::timestamptz
			FROM made, locked
			RETURNING id, topic, entity_id, kind, created_at
		)
		SELECT ${returned},
			(SELECT json_agg(json_build_array(kind, name, slug) ORDER BY kind DESC, position)
				FROM terms) AS terms,
			changed.id AS change_id, changed.topic AS change_topic,
			changed.entity_id AS change_entity_id, changed.kind AS change_kind,
			changed.created_at AS change_created_at,
			CASE WHEN changed.id IS NOT NULL
				THEN pg_notify(${postgres.channel}::text, changed.id::text) END AS notified
		FROM made LEFT JOIN changed ON true`.execute(db)
	const [row] = rows
	if (!row) return undefined
	const terms = { tags: [] as Term[], authors: [] as Term[] }
	for (const [termKind, name, slug] of (row.terms ?? []) as [TermKind, string, string][])
		(termKind === 'tag' ? terms.tags : terms.authors).push({ name, slug })
	const change =
		row.change_id === null
			? null
			: toChange({
					id: row.change_id,
					topic: row.change_topic,
					entity_id: row.change_entity_id,
					kind: row.change_kind,
					created_at: row.change_created_at,
				})
	return { article: toArticle(row, terms), change }
}
