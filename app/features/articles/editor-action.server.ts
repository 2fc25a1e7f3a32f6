// The article editor's form action, shared by the new-article and edit pages: one place that
// turns a posted form into a save and a save's outcome into what the page shows.
import { msg } from '@lingui/core/macro'
import { data, type RouterContextProvider, redirect } from 'react-router'
import { storeUpload } from '#app/features/uploads/uploads.server.ts'
import type { AppServices } from '#app/lib/context.server.ts'
import type { FieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import type { Article, ArticleKind } from '#storage/port/articles.ts'
import type { EditorActionData, EditorArticle } from './article-editor-types.ts'
import {
	createArticle,
	deleteArticle,
	type EditorResult,
	keepPendingEdits,
	type PendingEditsResult,
	pendingConflict,
	slugMadeFromTitle,
	unpublishArticleById,
	updateArticle,
} from './editor.server.ts'
import { articleFormInput } from './editor-form.ts'

/** `originalSlug`: the address of the article this one translates, if it does. */
export function toEditorArticle(article: Article, originalSlug = ''): EditorArticle {
	const { id, slug, title, summary, bodyMarkdown, tags, coverImageUrl, coverImageAlt } = article
	const { status, publishAt, publishedAt, updatedAt, version } = article
	const { notify = true, notifiedAt = null, seoTitle, seoDescription, socialImageUrl } = article
	const { email = true } = article
	return {
		id,
		kind: article.kind,
		slug,
		title,
		summary,
		bodyMarkdown,
		tags: tags.map((tag) => tag.name),
		authors: article.authors.map((author) => author.name),
		coverImageUrl,
		coverImageAlt,
		status,
		publishAt,
		publishedAt,
		updatedAt,
		version,
		notify,
		notifiedAt,
		email,
		emailedAt: article.emailedAt ?? null,
		seoTitle,
		seoDescription,
		socialImageUrl,
		language: article.language,
		translationOf: originalSlug,
		slugFollowsTitle: publishedAt === null && slugMadeFromTitle(article),
	}
}

/** The title of a new article autosaved before anyone gave it one, in its writer's language. */
export const untitledDraft = msg`Untitled draft`

/** What was typed, to show again when the save is refused (the page works without JavaScript). */
function postedValues(form: FormData): Record<string, string> {
	const values: Record<string, string> = {}
	for (const [name, value] of form) if (typeof value === 'string') values[name] = value
	return values
}

function answer(result: EditorResult, form: FormData, intent: string) {
	if (result.ok) {
		const { version, updatedAt, slug } = result.article
		return data<EditorActionData>({ saved: { version, updatedAt, intent, slug } })
	}
	if (result.kind === 'invalid')
		return data<EditorActionData>({ errors: result.errors, values: postedValues(form) }, 400)
	if (result.kind === 'conflict') {
		const { version, updatedAt, title } = result.current
		return data<EditorActionData>(
			{
				conflict: { version, updatedAt, title, pending: result.pending },
				values: postedValues(form),
			},
			409,
		)
	}
	throw data('This article no longer exists: someone deleted it.', 404)
}

/**
 * A cover or social image chosen in the file picker and posted with the form (no JavaScript:
 * with it, the picker uploads at once and only the address is posted). Stored first, its address
 * then used.
 */
async function withPostedCover(
	services: EditorServices,
	form: FormData,
	input: Record<string, unknown>,
	userId: string,
): Promise<EditorResult | undefined> {
	for (const field of ['cover', 'socialImage']) {
		const file = form.get(`${field}File`)
		if (!(file instanceof File) || file.size === 0) continue
		const bytes = new Uint8Array(await file.arrayBuffer())
		const stored = await storeUpload(services, bytes, { createdBy: userId, name: file.name })
		if (!stored.ok) return { ok: false, kind: 'invalid', errors: { [field]: [stored.message] } }
		input[field] = stored.upload.url
	}
	return undefined
}

/** How each field an autosave may refuse goes back to what is stored (a new article: none). */
function keepCover(input: Record<string, unknown>, stored?: Article) {
	input.cover = stored?.coverImageUrl ?? undefined
	input.coverAlt = stored?.coverImageAlt ?? undefined
}
function keepAuthors(input: Record<string, unknown>, stored?: Article) {
	input.authors = stored?.authors.map((author) => author.name) ?? []
	input.author = ''
}
const keptAsStored: Record<string, (input: Record<string, unknown>, stored?: Article) => void> = {
	cover: keepCover,
	coverAlt: keepCover,
	authors: keepAuthors,
	author: keepAuthors,
	tags: (input, stored) => {
		input.tags = stored?.tags.map((tag) => tag.name) ?? []
	},
	slug: (input) => {
		input.slug = undefined
	},
	summary: (input, stored) => {
		input.summary = stored?.summary ?? ''
	},
	seoTitle: (input, stored) => {
		input.seoTitle = stored?.seoTitle ?? ''
	},
	seoDescription: (input, stored) => {
		input.seoDescription = stored?.seoDescription ?? ''
	},
	socialImage: (input, stored) => {
		input.socialImage = stored?.socialImageUrl ?? ''
	},
	language: (input) => {
		input.language = undefined
	},
	translationOf: (input) => {
		input.translationOf = undefined
	},
}

/**
 * An autosave: `save` with what was typed; refused for fields beside the text (a cover without
 * its description, a tag too long, an address mistyped), made again with those fields as they are
 * stored, so the text typed is never lost to them. `refused` names what was not saved; none
 * when the title or the text itself was refused (nothing is saved then).
 */
async function autosaveKeepingTheRest<Result extends EditorResult | PendingEditsResult>(
	input: Record<string, unknown>,
	stored: Article | undefined,
	save: (fields: Record<string, unknown>) => Promise<Result>,
): Promise<{ result: Result; refused?: FieldErrors }> {
	const result = await save(input)
	if (result.ok || result.kind !== 'invalid') return { result }
	const fields = Object.keys(result.errors).map((key) => key.split('.')[0] ?? key)
	if (fields.some((field) => !Object.hasOwn(keptAsStored, field))) return { result }
	const rest = { ...input }
	for (const field of fields) keptAsStored[field]?.(rest, stored)
	return { result: await save(rest), refused: result.errors }
}

/** What the editor's actions use of the server's parts. */
type EditorServices = Pick<
	AppServices,
	'storage' | 'uploadMaxBytes' | 'uploadMaxPixels' | 'wakeImageVersions'
>

export async function newArticleAction(
	services: EditorServices,
	request: Request,
	/** The request's context: the writer's interface language, for a title given in words. */
	context: Readonly<RouterContextProvider>,
	editor: { id: string; name: string },
	/** What the editor makes: an article, or a page (About, Donate) at /<slug>. */
	kind: ArticleKind = 'article',
) {
	const form = await readForm(request)
	const input = articleFormInput(form)
	const refused = await withPostedCover(services, form, input, editor.id)
	if (refused) return answer(refused, form, String(input.intent))
	const { storage } = services
	// Written by whoever makes it, unless the form names others: their profile, made at first use.
	const author = (await storage.authors.forUser(editor.id, editor.name)).name
	if (input.intent === 'autosave') {
		// The first words of a new article make it a draft, without leaving the page: the
		// editor goes on with its id (article-editor.tsx). Words typed before any title are kept
		// too, under a title that says so.
		if (!String(input.title).trim())
			input.title = (await requestI18n(request, context))._(untitledDraft)
		const { result, refused } = await autosaveKeepingTheRest(input, undefined, (fields) =>
			createArticle(storage, { ...fields, intent: 'draft' }, author, undefined, kind, {
				kind: 'autosaved',
				by: editor,
			}),
		)
		if (!result.ok) return answer(result, form, 'autosave')
		const { id, version, updatedAt, title, slug } = result.article
		return data<EditorActionData>({
			saved: { version, updatedAt, intent: 'autosave', slug },
			created: { id, title },
			...(refused ? { savedExcept: refused } : {}),
		})
	}
	const result = await createArticle(storage, input, author, undefined, kind, { by: editor })
	if (result.ok) throw redirect(`/admin/articles/${result.article.id}?saved=${input.intent}`)
	return answer(result, form, String(input.intent))
}

export async function editArticleAction(
	services: EditorServices,
	request: Request,
	id: number,
	editor: { id: string; name: string },
) {
	const by = { id: editor.id, name: editor.name }
	const { storage } = services
	const form = await readForm(request)
	const input = articleFormInput(form)
	const intent = String(input.intent)
	if (intent !== 'autosave') {
		const refused = await withPostedCover(services, form, input, editor.id)
		if (refused) return answer(refused, form, intent)
	}
	const version = Number(input.version)
	if (intent === 'delete') {
		const list =
			(await storage.articles.findById(id))?.kind === 'page' ? '/admin/pages' : '/admin/articles'
		const deleted = await deleteArticle(storage, id, version)
		if (deleted.ok || deleted.kind === 'missing') throw redirect(`${list}?deleted=1`)
		const current = await storage.articles.findById(id)
		if (!current) throw redirect(`${list}?deleted=1`)
		return answer({ ok: false, kind: 'conflict', current }, form, intent)
	}
	// A save, Publish, Update or Unpublish would throw away another editor's pending edits kept
	// since this form was opened: refused, as their autosave would be.
	if (intent !== 'autosave' && intent !== 'discard') {
		const theirs = await pendingConflict(storage, id, input)
		if (theirs) return answer(theirs, form, intent)
	}
	if (intent === 'unpublish')
		return answer(await unpublishArticleById(storage, id, version, by), form, intent)
	if (intent === 'discard') {
		// The pending edits leave the editor (they stay in the history); the live text comes back.
		await storage.revisions.discardPending(id)
		throw redirect(`/admin/articles/${id}?saved=discard`)
	}
	if (intent === 'autosave') {
		const current = await storage.articles.findById(id)
		if (!current) throw data('This article no longer exists: someone deleted it.', 404)
		// A plain draft is saved as it is typed; a published or scheduled article keeps its
		// edits pending, and readers see them only after Update.
		// A title emptied while typing is not a reason to lose the text: the stored one stays.
		if (current.status === 'draft' && !current.publishAt) {
			if (!String(input.title).trim()) input.title = current.title
			const { result, refused } = await autosaveKeepingTheRest(input, current, (fields) =>
				updateArticle(storage, id, { ...fields, intent: 'draft' }, { kind: 'autosaved', by }),
			)
			if (!result.ok) return answer(result, form, intent)
			const { version, updatedAt, slug } = result.article
			return data<EditorActionData>({
				saved: { version, updatedAt, intent, slug },
				...(refused ? { savedExcept: refused } : {}),
			})
		}
		const { result: kept, refused } = await autosaveKeepingTheRest(input, current, (fields) =>
			keepPendingEdits(storage, current, fields, by),
		)
		if (kept.ok)
			return data<EditorActionData>({
				saved: { version: kept.version, updatedAt: kept.savedAt, intent },
				pending: !kept.unchanged,
				unchanged: kept.unchanged,
				...(refused ? { savedExcept: refused } : {}),
			})
		return answer(kept, form, intent)
	}
	const result = await updateArticle(storage, id, input, { by })
	// A save pressed on the new-article page after its first autosave made it this draft: the
	// page moves on to the draft's own, as a save from "new" always has.
	if (result.ok && input.fromNewPage === true)
		throw redirect(`/admin/articles/${id}?saved=${intent}`)
	return answer(result, form, intent)
}
