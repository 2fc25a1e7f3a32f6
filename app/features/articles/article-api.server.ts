// The admin API's view of articles: what a request may send, what an answer holds, and each
// endpoint's work, through the same editor functions the editor area's forms use.
import { createHash } from 'node:crypto'
import type { z } from 'zod'
import {
	type ApiRequest,
	apiError,
	parseVersion,
	readJsonObject,
} from '#app/features/api-keys/api-http.server.ts'
import type { FieldErrors } from '#app/lib/field-errors.ts'
import type { Article, ArticleListItem, ArticleStatusFilter } from '#storage/port/articles.ts'
import type { ApiArticle, apiListItemSchema } from './article-api.schema.ts'
import {
	createArticle,
	deleteArticle,
	type EditorResult,
	listEditorArticles,
	unpublishArticleById,
	updateArticle,
} from './editor.server.ts'

type ApiListItem = z.infer<typeof apiListItemSchema>

function apiStatus(article: Pick<Article, 'status' | 'publishAt'>): ArticleStatusFilter {
	if (article.status === 'published') return 'published'
	return article.publishAt ? 'scheduled' : 'draft'
}

function publicUrl(siteUrl: string, article: Pick<Article, 'status' | 'slug'>): string | null {
	return article.status === 'published'
		? new URL(`/articles/${article.slug}`, siteUrl).toString()
		: null
}

export function toApiArticle(article: Article, siteUrl: string): ApiArticle {
	return {
		id: article.id,
		slug: article.slug,
		title: article.title,
		summary: article.summary,
		body: article.bodyMarkdown,
		html: article.bodyHtml,
		author: article.authors.map((author) => author.name).join(', '),
		authors: article.authors.map((author) => author.name),
		tags: article.tags.map((tag) => tag.name),
		cover: article.coverImageUrl,
		coverAlt: article.coverImageAlt,
		seoTitle: article.seoTitle,
		seoDescription: article.seoDescription,
		socialImage: article.socialImageUrl,
		language: article.language,
		translationOf: article.translationOf,
		status: apiStatus(article),
		publishAt: article.publishAt,
		publishedAt: article.publishedAt,
		createdAt: article.createdAt,
		updatedAt: article.updatedAt,
		version: article.version,
		url: publicUrl(siteUrl, article),
		notify: article.notify ?? true,
		notifiedAt: article.notifiedAt ?? null,
		email: article.email ?? true,
		emailedAt: article.emailedAt ?? null,
	}
}

function toApiListItem(item: ArticleListItem, siteUrl: string): ApiListItem {
	const { id, slug, title, authors, publishAt, publishedAt, updatedAt, version } = item
	const { notify, notifiedAt } = item
	return {
		id,
		slug,
		title,
		author: authors.map((author) => author.name).join(', '),
		authors: authors.map((author) => author.name),
		status: apiStatus(item),
		publishAt,
		publishedAt,
		updatedAt,
		version,
		url: publicUrl(siteUrl, item),
		notify,
		notifiedAt,
	}
}

const intentForStatus: Record<string, string> = {
	draft: 'draft',
	scheduled: 'schedule',
	published: 'publish',
}

/** Problems the shared schemas would not catch but a database would choke on. */
function storageProblems(raw: Record<string, unknown>): FieldErrors {
	const errors: FieldErrors = {}
	for (const [field, value] of Object.entries(raw)) {
		const texts = Array.isArray(value) ? value : [value]
		if (texts.some((text) => typeof text === 'string' && text.includes('\u0000'))) {
			errors[field] = ['Remove the NUL character (\\u0000) from this field.']
		}
	}
	for (const field of ['publishAt', 'publishedAt']) {
		const value = raw[field]
		if (typeof value !== 'string' && typeof value !== 'number') continue
		const year = new Date(value).getUTCFullYear()
		if (year < 1 || year > 9999) errors[field] = ['Give a date between the years 1 and 9999.']
	}
	return errors
}

/**
 * The editor functions' fields from an API body. `intent` says what to do; failing that `status`
 * (as GET answers it) does, so an article read, changed and sent back keeps its state.
 */
function editorFields(
	body: Record<string, unknown>,
	current?: Article,
): { ok: true; fields: Record<string, unknown> } | { ok: false; errors: FieldErrors } {
	const problems = storageProblems(body)
	if (Object.keys(problems).length > 0) return { ok: false, errors: problems }
	const fields = { ...body }
	// GET answers null for dates not set; sent back, null would read as 1970.
	for (const field of ['publishAt', 'publishedAt']) if (fields[field] === null) delete fields[field]
	if (fields.intent === undefined && fields.status !== undefined) {
		const intent = typeof fields.status === 'string' ? intentForStatus[fields.status] : undefined
		if (!intent) {
			return {
				ok: false,
				errors: { status: ['Use "draft", "scheduled" or "published" as the status.'] },
			}
		}
		fields.intent = intent
	}
	if (fields.intent === undefined) {
		fields.intent = current ? (intentForStatus[apiStatus(current)] ?? 'draft') : 'draft'
	}
	if (fields.intent === 'schedule' && fields.publishAt == null && current?.publishAt) {
		fields.publishAt = current.publishAt
	}
	return { ok: true, fields }
}

const invalidMessage = 'Some fields need fixing; see errors.'

/** Whose save it is in the article's history: the key's owner, or the signed-in editor. */
function byCaller(caller: ApiRequest['caller']) {
	return { id: caller.userId, name: caller.name }
}

function answer(result: EditorResult, siteUrl: string, created = false): Response {
	if (result.ok) {
		const article = toApiArticle(result.article, siteUrl)
		return created
			? Response.json(
					{ article },
					{ status: 201, headers: { Location: `/api/admin/articles/${article.id}` } },
				)
			: Response.json({ article })
	}
	if (result.kind === 'invalid') return apiError(400, invalidMessage, { errors: result.errors })
	if (result.kind === 'conflict') return conflict(result.current, siteUrl)
	return notFound()
}

function conflict(current: Article, siteUrl: string): Response {
	return apiError(
		409,
		'Someone changed this article since you read it. Read it again, reapply your change, and send it with the new version.',
		{ current: toApiArticle(current, siteUrl) },
	)
}

export function notFound(): Response {
	return apiError(404, 'There is no article with this id. It may have been deleted.')
}

export async function listArticlesApi({ request, storage, siteUrl }: ApiRequest) {
	const params = Object.fromEntries(new URL(request.url).searchParams)
	const { items, total, page, pages } = await listEditorArticles(storage, params)
	return Response.json({
		items: items.map((item) => toApiListItem(item, siteUrl)),
		total,
		page,
		pages,
	})
}

/**
 * An Idempotency-Key makes a create safe to send again (after a timeout, or a 503 whose commit
 * may have gone through): for a day, the same key and body answer with the article the first
 * request made, and the same key with another body is refused. Without one, a create sent twice
 * makes two articles.
 */
const idempotencyKey = /^[\x21-\x7e]{1,255}$/

export async function createArticleApi({ request, caller, storage, siteUrl }: ApiRequest) {
	const key = request.headers.get('idempotency-key')
	if (key !== null && !idempotencyKey.test(key))
		return apiError(400, invalidMessage, {
			errors: {
				'Idempotency-Key': [
					'Send 1 to 255 visible ASCII characters without spaces, such as a UUID.',
				],
			},
		})
	const body = await readJsonObject(request)
	if (body instanceof Response) return body
	const read = editorFields(body)
	if (!read.ok) return apiError(400, invalidMessage, { errors: read.errors })
	const repeatable = key
		? {
				userId: caller.userId,
				key,
				fingerprint: createHash('sha256').update(JSON.stringify(body)).digest('hex'),
			}
		: undefined
	// Written by the key's owner (or the signed-in editor), under their profile, unless named.
	const author = (await storage.authors.forUser(caller.userId, caller.name)).name
	const result = await createArticle(storage, read.fields, author, repeatable, 'article', {
		by: { id: caller.userId, name: caller.name },
	})
	if (result.ok && result.repeated) {
		const replay = answer(result, siteUrl, true)
		replay.headers.set('Idempotent-Replayed', 'true')
		return replay
	}
	if (!result.ok && result.kind === 'invalid' && result.errors['Idempotency-Key'])
		return apiError(422, 'This Idempotency-Key came before with a different request.', {
			errors: result.errors,
		})
	return answer(result, siteUrl, true)
}

export async function getArticleApi({ storage, siteUrl }: ApiRequest, id: number) {
	const article = await storage.articles.findById(id)
	return article ? Response.json({ article: toApiArticle(article, siteUrl) }) : notFound()
}

/** A write's JSON body and the version it builds on (`{version}`), or the answer to give instead. */
async function versionedBody(
	request: Request,
): Promise<{ body: Record<string, unknown>; version: number } | Response> {
	const body = await readJsonObject(request)
	if (body instanceof Response) return body
	const version = parseVersion(body.version)
	return version instanceof Response ? version : { body, version }
}

export async function updateArticleApi(
	{ request, caller, storage, siteUrl }: ApiRequest,
	id: number,
) {
	const read = await versionedBody(request)
	if (read instanceof Response) return read
	const { body, version } = read
	const current = await storage.articles.findById(id)
	if (!current) return notFound()
	const fields = editorFields(body, current)
	if (!fields.ok) return apiError(400, invalidMessage, { errors: fields.errors })
	return answer(
		await updateArticle(storage, id, { ...fields.fields, version }, { by: byCaller(caller) }),
		siteUrl,
	)
}

export async function deleteArticleApi({ request, storage, siteUrl }: ApiRequest, id: number) {
	const given = new URL(request.url).searchParams.get('version')
	const version = given === null ? undefined : parseVersion(given)
	if (version instanceof Response) return version
	const deleted = await deleteArticle(storage, id, version)
	if (deleted.ok) return new Response(null, { status: 204 })
	const current = deleted.kind === 'conflict' && (await storage.articles.findById(id))
	return current ? conflict(current, siteUrl) : notFound()
}

export async function publishArticleApi(
	{ request, caller, storage, siteUrl }: ApiRequest,
	id: number,
) {
	const read = await versionedBody(request)
	if (read instanceof Response) return read
	const { version } = read
	const current = await storage.articles.findById(id)
	if (!current) return notFound()
	// The article as it stands, made public: the same save the editor's Publish button makes.
	const fields = {
		title: current.title,
		slug: current.slug,
		summary: current.summary,
		body: current.bodyMarkdown,
		authors: current.authors.map((author) => author.name),
		tags: current.tags.map((tag) => tag.name),
		cover: current.coverImageUrl,
		coverAlt: current.coverImageAlt,
		intent: 'publish',
		version,
	}
	return answer(await updateArticle(storage, id, fields, { by: byCaller(caller) }), siteUrl)
}

export async function unpublishArticleApi(
	{ request, caller, storage, siteUrl }: ApiRequest,
	id: number,
) {
	const read = await versionedBody(request)
	if (read instanceof Response) return read
	return answer(await unpublishArticleById(storage, id, read.version, byCaller(caller)), siteUrl)
}
