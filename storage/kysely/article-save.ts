// What one article save writes besides the row: its change on the feed and, when it announces
// the article, its push and newsletter deliveries (cancelled when it stops being public); its
// webhook event; and the row's columns.
import type { Transaction } from 'kysely'
import type { ArticleRules, ArticleWrite } from '../port/articles.ts'
import type { Change, ChangeKind } from '../port/changes.ts'
import type { Dialect } from '../port/storage.ts'
import { appendChange, type ChangeHooks, preceding } from './change-repository.ts'
import { articleMailSend, cancelArticleMails } from './newsletter-shared.ts'
import { articleDeliveries, cancelArticleDeliveries } from './push-shared.ts'
import type { Database } from './schema.ts'
import {
	type articleEventColumns,
	articleEventData,
	articleEventType,
	webhookEvent,
} from './webhook-events.ts'

/**
 * What a save means for readers, push and webhooks, written in the save's transaction: the change
 * row for the live feed and, when the save announced the article (set its notified_at: see
 * `announcing`), one push delivery per subscriber; when it stops being public, what has not gone
 * out is cancelled; and the deliveries of its webhook event (an article's, not a page's). No
 * change for a draft saved as a draft.
 */
export async function recordArticleChange(
	trx: Transaction<Database>,
	hooks: ChangeHooks,
	dialect: Dialect,
	row: SavedRow,
	kind: ChangeKind,
	announced: Announcement,
	now: string,
	webhooks?: boolean,
): Promise<Change>
export async function recordArticleChange(
	trx: Transaction<Database>,
	hooks: ChangeHooks,
	dialect: Dialect,
	row: SavedRow,
	kind: ChangeKind | null,
	announced: Announcement,
	now: string,
	webhooks?: boolean,
): Promise<Change | null>
export async function recordArticleChange(
	trx: Transaction<Database>,
	hooks: ChangeHooks,
	dialect: Dialect,
	/** The row as saved: its kind puts a page's changes on the pages topic, never the articles'. */
	row: SavedRow,
	kind: ChangeKind | null,
	announced: Announcement,
	now: string,
	/** false: no webhook event for this save (ArticleWrite.webhooks). */
	webhooks = true,
): Promise<Change | null> {
	if (!kind) return null
	const articleId = Number(row.id)
	if (kind === 'removed') {
		await cancelArticleDeliveries(trx, articleId, now)
		await cancelArticleMails(trx, articleId, now)
	}
	const event = webhooks ? articleEventType(kind, row.kind) : null
	const deliveries = [
		...(announced.push ? [preceding(articleDeliveries(trx, articleId))] : []),
		...(announced.mail ? [preceding(articleMailSend(trx, articleId))] : []),
		...(event ? [webhookEvent(trx, dialect, event, articleEventData(row), now)] : []),
	]
	return appendChange(trx, hooks, topicOf(row.kind), String(articleId), kind, deliveries)
}

/** What recordArticleChange reads of the saved row. */
export type SavedRow = Record<(typeof articleEventColumns)[number] | 'kind', unknown>

/** The feed topic of a row of the articles table, by its kind. */
export function topicOf(rowKind: unknown): 'articles' | 'pages' {
	return rowKind === 'page' ? 'pages' : 'articles'
}

/** Whether a save announces the article to push subscribers, and whether it mails it. */
export interface Announcement {
	push: boolean
	mail: boolean
}

/**
 * Whether this save announces the article (rules.announces), to push subscribers and by mail,
 * each by its own switch, read from the row as stored. Announcing is setting notified_at (push)
 * or emailed_at (mail) in the save's own write (a second UPDATE of the row would cost a round
 * trip and a row version). Each at most once: the row was read under a lock (PostgreSQL: FOR
 * UPDATE, or the version check of update(); SQLite: the one writer), so of two transactions
 * publishing it, the second sees the column set.
 */
export function announcing(
	rules: ArticleRules,
	kind: ChangeKind | null,
	choice: { notify?: boolean | number | undefined; email?: boolean | number | undefined },
	before: { notified_at?: unknown; emailed_at?: unknown } | null | undefined,
): Announcement {
	return {
		push: rules.announces(
			kind,
			Boolean(choice.notify ?? true),
			(before?.notified_at ?? null) !== null,
		),
		mail: rules.announces(
			kind,
			Boolean(choice.email ?? true),
			(before?.emailed_at ?? null) !== null,
		),
	}
}

/** The columns a save sets for what it announced. */
export function announcementColumns(announced: Announcement, now: string) {
	return {
		...(announced.push ? { notified_at: now } : {}),
		...(announced.mail ? { emailed_at: now } : {}),
	}
}

export function articleColumns(write: ArticleWrite) {
	return {
		slug: write.slug,
		title: write.title,
		summary: write.summary,
		body_markdown: write.bodyMarkdown,
		body_html: write.bodyHtml,
		cover_image_url: write.coverImageUrl,
		cover_image_alt: write.coverImageAlt,
		cover_image_width: write.coverImageWidth,
		cover_image_height: write.coverImageHeight,
		status: write.status,
		reading_minutes: write.readingMinutes,
		published_at: write.publishedAt === null ? null : new Date(write.publishedAt).toISOString(),
		// Only a draft waits for a time; publishing (by hand or by the job) clears it.
		publish_at:
			write.status === 'draft' && write.publishAt ? new Date(write.publishAt).toISOString() : null,
		// Left out when not given: saving an article keeps the choice made for it.
		...(write.notify === undefined ? {} : { notify: write.notify }),
		...(write.email === undefined ? {} : { email: write.email }),
		...(write.seoTitle === undefined ? {} : { seo_title: write.seoTitle }),
		...(write.seoDescription === undefined ? {} : { seo_description: write.seoDescription }),
		...(write.socialImageUrl === undefined ? {} : { social_image_url: write.socialImageUrl }),
		...(write.language === undefined ? {} : { language: write.language }),
		// Checked in the save's transaction (article-translations.ts) before it is written.
		...(write.translationOf === undefined ? {} : { translation_of: write.translationOf }),
	}
}

/** A unique-constraint failure on either database (the slug, raced by another writer). */
export function isUniqueViolation(error: unknown): boolean {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
	return code === '23505' || (typeof message === 'string' && message.includes('UNIQUE constraint'))
}
