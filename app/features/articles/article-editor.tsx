// The article editor: Markdown with a live preview from the public page's own pipeline, a slug
// checked as you type, autosave for drafts, a guard against leaving with unsaved changes, and a
// clear answer when someone else saved first. Works as a plain form without JavaScript.
import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react'
import { Form, Link, useFetcher, useNavigation } from 'react-router'
import { ErrorSummary } from '#app/components/ui/error-summary.tsx'
import { Field, schemaMessage, TextAreaField } from '#app/components/ui/field.tsx'
import { LeaveDialog, useLeaveGuard } from '#app/components/ui/leave-guard.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { publicPath, reservedSlugs } from '#app/features/pages/page-addresses.ts'
import { ImageUploadField } from '#app/features/uploads/image-upload-field.tsx'
import { textLanguage } from '#app/lib/interface-language.ts'
import { useSiteLanguage } from '#app/lib/root-data.ts'
import type { ArticleKind } from '#storage/port/articles.ts'
import { DangerZone } from './article-danger-zone.tsx'
import { ConflictNotice, LanguageFields, ScheduleFields } from './article-editor-parts.tsx'
import type { EditorActionData, EditorArticle } from './article-editor-types.ts'
import { EmailField, NotifyField } from './article-notify-field.tsx'
import { useDebounced, useLivePreview, useSlugCheck, useStandingErrors } from './editor-hooks.ts'
import { MarkdownImagePicker, useMarkdownImages } from './markdown-images.tsx'
import { continueList, MarkdownToolbar, markdownShortcut } from './markdown-toolbar.tsx'

const autosaveDelayMs = 2_000

/** The editor's fields as they are labelled, for the summary of what stopped a save. */
const fieldLabels = {
	title: msg`Title`,
	body: msg`Text (Markdown)`,
	slug: msg`Address (slug)`,
	summary: msg`Summary`,
	tags: msg`Tags`,
	authors: msg`Authors`,
	cover: msg`Cover image`,
	coverAlt: msg`Cover image description`,
	publishAt: msg`Publish at`,
	seoTitle: msg`Title for search engines`,
	seoDescription: msg`Description for search engines`,
	socialImage: msg`Image for shared links`,
	revision: msg`Revision`,
	language: msg`Written in`,
	translationOf: msg`Translation of`,
} satisfies Record<string, MessageDescriptor>

/** What a refused save says first: what did not happen (a refused Publish saved nothing either,
 * but the draft autosaved before it stands). */
function refusedTitle(
	i18n: I18n,
	kind: ArticleKind,
	intent: string | undefined,
	published: boolean,
): string {
	// Update on a published one: it stays as readers have it, without these changes.
	if (intent === 'publish' && published)
		return kind === 'page'
			? i18n._(
					msg`The changes were not published: readers still see the page as it was. Change what is said below, then update again.`,
				)
			: i18n._(
					msg`The changes were not published: readers still see the article as it was. Change what is said below, then update again.`,
				)
	if (intent === 'publish')
		return kind === 'page'
			? i18n._(msg`The page was not published. Change what is said below, then publish again.`)
			: i18n._(msg`The article was not published. Change what is said below, then publish again.`)
	if (intent === 'schedule')
		return kind === 'page'
			? i18n._(msg`The page was not scheduled. Change what is said below, then schedule again.`)
			: i18n._(msg`The article was not scheduled. Change what is said below, then schedule again.`)
	return kind === 'page'
		? i18n._(msg`The page was not saved. Change what is said below, then save again.`)
		: i18n._(msg`The article was not saved. Change what is said below, then save again.`)
}

/** `updated`: it was published before this save (Update, not a first Publish). */
function savedMessage(i18n: I18n, intent: string, kind: ArticleKind, updated = false): string {
	const page = kind === 'page'
	if (intent === 'publish' && updated)
		return page
			? i18n._(msg`Page updated. Readers see the changes now.`)
			: i18n._(msg`Article updated. Readers see the changes now.`)
	if (intent === 'publish')
		return page
			? i18n._(msg`Published. Readers see it at its address now.`)
			: i18n._(msg`Published. Readers on the articles page see it now.`)
	if (intent === 'schedule') return i18n._(msg`Scheduled.`)
	if (intent === 'discard')
		return i18n._(msg`Changes discarded: the form holds the live text again.`)
	if (intent === 'restore')
		return page
			? i18n._(msg`Restored: the page holds the earlier version now.`)
			: i18n._(msg`Restored: the article holds the earlier version now.`)
	if (intent === 'unpublish')
		return page
			? i18n._(msg`Unpublished: the page is a draft again.`)
			: i18n._(msg`Unpublished: the article is a draft again.`)
	return i18n._(msg`Draft saved.`)
}

export function ArticleEditor({
	article,
	kind: newKind = 'article',
	actionData,
	initialHtml,
	uploadMaxBytes,
	defaultAuthors = [],
	onDraftMade,
}: {
	article: EditorArticle | null
	/** A new article's first autosave made it a draft of this title (the page's heading follows). */
	onDraftMade?: (title: string) => void
	/** A new article's authors until the editor names others: whoever is writing it. */
	defaultAuthors?: string[]
	/** What a new one is (an article, or a page at /<slug>); a stored one says itself. */
	kind?: ArticleKind
	actionData: EditorActionData | undefined
	/** The preview of the stored body, rendered by the loader. */
	initialHtml: string
	/** The largest image upload taken (UPLOAD_MAX_MB). */
	uploadMaxBytes: number
}) {
	const { t, i18n } = useLingui()
	const kind = article?.kind ?? newKind
	const page = kind === 'page'
	const labels = Object.fromEntries(
		Object.entries(fieldLabels).map(([name, label]) => [name, i18n._(label)]),
	)
	const values = actionData?.values
	// What the last refused save said, less what was mended since (editor-hooks.ts).
	const standing = useStandingErrors(actionData)
	const errors = standing.fields
	const value = (name: string, stored: string) => values?.[name] ?? stored
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting'
	const scheduled = article?.status === 'draft' && article.publishAt !== null
	// Every edit is kept as it is typed: a new article's first autosave makes it a draft (titled
	// "Untitled draft" until it has a title); a published or scheduled one's are kept pending
	// until Update.

	const formRef = useRef<HTMLFormElement>(null)
	const [version, setVersion] = useState(article?.version ?? 0)
	const [conflict, setConflict] = useState(actionData?.conflict)
	const [edits, setEdits] = useState(0)
	const { blocker, markDirty } = useLeaveGuard()

	// A newer version from the loader (after a save or autosave) is what the next save builds on.
	useEffect(() => {
		if (article) setVersion(article.version)
	}, [article])
	// The pending edits (a published or scheduled article's, not live yet) the form holds: the
	// loader's when the article's version changes (opened, updated), then this form's own
	// autosaves'. Sent with each save, so another editor's kept since is never overwritten.
	const [pendingBasis, setPendingBasis] = useState(article?.pendingSavedAt ?? '')
	const articleVersion = article?.version
	const loadedPending = article?.pendingSavedAt ?? ''
	// biome-ignore lint/correctness/useExhaustiveDependencies: only when the version changes
	useEffect(() => setPendingBasis(loadedPending), [articleVersion])
	useEffect(() => setConflict(actionData?.conflict), [actionData])

	const [body, setBody] = useState(value('body', article?.bodyMarkdown ?? ''))
	const previewHtml = useLivePreview(body, initialHtml)
	// The language field's check of the text's script, made once typing pauses.
	const debouncedBody = useDebounced(body, 500)
	const bodyField = useRef<HTMLTextAreaElement>(null)
	const [slug, setSlug] = useState(value('slug', article?.slug ?? ''))
	const address = publicPath(kind, slug.trim())
	// Typed in here, the address is the editor's: it no longer follows the title (unless emptied).
	const [slugTyped, setSlugTyped] = useState(false)
	// A draft never published lets its address follow the title while the field is empty or holds
	// the stored address as it came; the server then checks that the stored one is the title's
	// own, not one typed on an earlier visit (updateArticle). Never once published: readers have
	// the address.
	const slugMayFollow = !article?.publishedAt && (slug.trim() === '' || !slugTyped)
	// Said beside the field: the stored address is the title's, and moves with it.
	const slugFollowing = article?.slugFollowsTitle === true && !slugTyped && slug.trim() !== ''
	// The language the text is written in: the preview says it, so it reads in its own direction.
	const siteLanguage = useSiteLanguage()
	const [language, setLanguage] = useState(value('language', article?.language ?? ''))

	// Autosave: a draft is saved; a published or scheduled article keeps the edits pending.
	const autosave = useFetcher<EditorActionData>()
	const autosaveSubmit = autosave.submit
	const autosaving = autosave.state !== 'idle'
	const debouncedEdits = useDebounced(edits, autosaveDelayMs)
	const savedEdits = useRef(0)
	// A new article made a draft by its first autosave: every save after it is that draft's.
	const [createdId, setCreatedId] = useState<number | null>(null)
	// Taken in the render that brings the answer (not an effect after it), so no save button is
	// ever enabled with the form still pointing at "new".
	const made = autosave.data?.created
	if (made !== undefined && createdId === null) setCreatedId(made.id)
	const saveAction = createdId === null ? undefined : `/admin/articles/${createdId}`
	const savedId = article?.id ?? createdId
	// While a new article's first autosave is making it a draft, a save would make a second one.
	const saving = busy || (savedId === null && autosaving)
	// Checked against every other article: a new article's own autosaved draft holds its address.
	const slugLive = useSlugCheck(
		slug,
		savedId === null ? null : { id: savedId, slug: article?.slug ?? '' },
	)
	// A page may not take one of the site's own addresses: said as it is typed, in the editor's
	// language (also in place of the server's English when a save was refused for it).
	const typedSlug = slug.trim()
	const reservedSlug =
		page && reservedSlugs.has(typedSlug)
			? t`“${typedSlug}” is one of the site’s own addresses (/${typedSlug}), so a page cannot use it. Choose another slug, e.g. “about-${typedSlug}”.`
			: null
	useEffect(() => {
		// Edits a save or Publish sent are not saved again after it (a pending copy of what was
		// just published read as changes "not live until you update").
		if (debouncedEdits === 0 || debouncedEdits <= savedEdits.current) return
		const form = formRef.current
		// One at a time: a new article's first autosave must come back with its id before the next.
		// Nor beside a save or Publish on its way: on a slow server the debounce can fire while a
		// new article's Publish is still making it, and a second article of that address is refused.
		if (!form || conflict || autosaving || navigation.state !== 'idle') return
		const data = new FormData(form)
		savedEdits.current = debouncedEdits
		data.set('intent', 'autosave')
		// Leaving the page mid-save aborts it; the guard on leaving has already asked.
		autosaveSubmit(data, { method: 'post', action: saveAction }).catch(() => {})
	}, [debouncedEdits, conflict, autosaving, navigation.state, saveAction, autosaveSubmit])
	const autosaved = autosave.data
	// A save or Publish pressed while an autosave is on its way waits for it, and is then sent
	// with the version it made (sent at once, it was refused as overwriting one's own autosave).
	const queuedSubmit = useRef<HTMLElement | null>(null)
	useEffect(() => {
		const submitter = queuedSubmit.current
		if (!submitter || autosaving) return
		// The render that puts the autosave's version in the form, not the one before it.
		if (autosaved?.saved && autosaved.saved.version !== version) return
		queuedSubmit.current = null
		if (!autosaved?.conflict) formRef.current?.requestSubmit(submitter)
	}, [autosaving, autosaved, version])
	useEffect(() => {
		if (autosaved?.saved) setVersion(autosaved.saved.version)
		// The address the title made, in the field that holds the stored one untouched: sent back
		// with the next save as it is stored, it goes on following (in the same render as the
		// version, which a queued save waits for).
		const followed = autosaved?.saved?.slug
		if (followed && !slugTyped) setSlug((shown) => (shown.trim() === '' ? shown : followed))
		if (autosaved?.pending && autosaved.saved) setPendingBasis(autosaved.saved.updatedAt)
		if (autosaved?.unchanged) setPendingBasis('')
		if (autosaved?.conflict) setConflict(autosaved.conflict)
	}, [autosaved, slugTyped])
	// The same after a save by button, which the loader brings.
	const storedSlug = article?.slug
	useEffect(() => {
		if (storedSlug && !slugTyped) setSlug((shown) => (shown.trim() === '' ? shown : storedSlug))
	}, [storedSlug, slugTyped])
	useEffect(() => {
		// The address of the draft, so a reload or a closed tab comes back to it. Not a
		// navigation: the editor, its caret and what is being typed stay as they are.
		if (createdId !== null)
			window.history.replaceState(window.history.state, '', `/admin/articles/${createdId}`)
	}, [createdId])
	const madeTitle = made?.title
	useEffect(() => {
		if (madeTitle !== undefined) onDraftMade?.(madeTitle)
	}, [madeTitle, onDraftMade])
	// Clean again once the autosave holds every edit made so far.
	useEffect(() => {
		if (autosaved?.saved && !autosaved.savedExcept && savedEdits.current === edits) markDirty(false)
	}, [autosaved, edits, markDirty])

	const published = article?.status === 'published'
	// Whether it was published before the latest answer came (read in the render that brings the
	// answer, set after each one): a Publish then was an Update. A new article's first answer
	// (?saved=publish on arrival) was its first Publish.
	const publishedBefore = useRef(published && !actionData?.saved)
	const updated = publishedBefore.current
	// The latest save's outcome, whichever way it was made.
	const [status, setStatus] = useState<ReactNode>(
		actionData?.saved ? savedMessage(i18n, actionData.saved.intent, kind, updated) : null,
	)
	// biome-ignore lint/correctness/useExhaustiveDependencies: `updated` as it was when the answer came, not after
	useEffect(() => {
		if (actionData?.saved) setStatus(savedMessage(i18n, actionData.saved.intent, kind, updated))
	}, [actionData, kind, i18n])
	// After the effect above, which read the state before this render.
	useEffect(() => {
		publishedBefore.current = published
	})
	// Each autosave's news is said once, when it comes: not again over a later save's ("Draft
	// saved" in place of "Published" when the article became published).
	const toldAutosave = useRef<typeof autosaved>(undefined)
	const { saveTook } = standing
	useEffect(() => {
		if (autosaved === toldAutosave.current) return
		toldAutosave.current = autosaved
		// Saved: a refused save's summary no longer says why the article is not.
		if (autosaved?.saved) saveTook()
		// Refused (a cover without its description, a draft with no text yet): said where the last
		// save's news is, in place of it, so an older "Draft saved" never stands for these edits.
		const refused = autosaved?.errors ? Object.values(autosaved.errors).flat() : []
		if (refused.length > 0) {
			const reasons = refused.map((text) => schemaMessage(i18n, text)).join(' ')
			setStatus(<Trans>Not saved yet: {reasons}</Trans>)
			return
		}
		if (autosaved?.unchanged)
			setStatus(
				published ? (
					<Trans>No changes: the form holds the published text.</Trans>
				) : (
					<Trans>No changes: the form holds the scheduled text.</Trans>
				),
			)
		else if (autosaved?.saved) {
			// Saved but for a field the save refused (a cover without its description): the text
			// is safe, and what to fix is said with it.
			const except = Object.values(autosaved.savedExcept ?? {})
				.flat()
				.map((text) => schemaMessage(i18n, text))
				.join(' ')
			const exceptNote = except ? (
				<>
					{' '}
					<Trans>Not saved until fixed: {except}</Trans>
				</>
			) : null
			setStatus(
				<>
					{autosaved.pending ? (
						published ? (
							<Trans>
								Changes saved at <LocalTime iso={autosaved.saved.updatedAt} clock />, not live until
								you update.
							</Trans>
						) : (
							<Trans>
								Changes saved at <LocalTime iso={autosaved.saved.updatedAt} clock />, not live until
								you schedule again.
							</Trans>
						)
					) : (
						<Trans>
							Draft saved at <LocalTime iso={autosaved.saved.updatedAt} clock />.
						</Trans>
					)}
					{exceptNote}
				</>,
			)
		}
	}, [autosaved, published, i18n, saveTook])

	/** An edit, to the field of this name: its message from a refused save goes with it. */
	const onChange = (field: string | undefined) => {
		markDirty(true)
		setEdits((n) => n + 1)
		if (field) standing.fieldChanged(field)
	}
	const images = useMarkdownImages({
		textarea: bodyField,
		setBody,
		onInserted: () => onChange('body'),
		maxBytes: uploadMaxBytes,
	})
	// What was saved before the last save or Publish was sent, in case it is refused.
	const editsBeforeSubmit = useRef(0)
	const onSubmit = (event: FormEvent<HTMLFormElement>) => {
		if (autosaving && savedId !== null) {
			event.preventDefault()
			queuedSubmit.current = (event.nativeEvent as SubmitEvent).submitter
			return
		}
		editsBeforeSubmit.current = savedEdits.current
		savedEdits.current = edits
		// Saving is not leaving: the redirect after a save must not ask.
		markDirty(false)
	}
	// A save or Publish refused (a field to mend, a conflict) saved none of the edits it sent:
	// leaving asks again, and a draft's autosave takes them once the answer is in.
	useEffect(() => {
		if (!actionData || actionData.saved) return
		savedEdits.current = editsBeforeSubmit.current
		markDirty(true)
		// Counted as an edit, so the autosave's wait starts now that the answer is in.
		setEdits((count) => count + 1)
	}, [actionData, markDirty])

	return (
		<>
			{conflict ? (
				<ConflictNotice
					conflict={conflict}
					articleId={article?.id}
					onOverride={() => {
						// The next save then builds on their version, knowingly replacing it.
						setVersion(conflict.version)
						if (conflict.pending) setPendingBasis(conflict.pending.savedAt)
						setConflict(undefined)
					}}
				/>
			) : null}
			<ErrorSummary
				errors={
					reservedSlug && standing.summary.slug
						? { ...standing.summary, slug: [reservedSlug] }
						: standing.summary
				}
				answer={actionData}
				labels={labels}
				title={refusedTitle(i18n, kind, values?.intent, published)}
			/>
			<Form
				method="post"
				action={saveAction}
				className="form editor-form"
				ref={formRef}
				encType="multipart/form-data"
				onChange={(event) => onChange((event.target as { name?: string }).name)}
				onSubmit={onSubmit}
				noValidate
			>
				<input type="hidden" name="version" value={version || ''} />
				{article ? <input type="hidden" name="pendingBasis" value={pendingBasis} /> : null}
				{slugMayFollow ? <input type="hidden" name="slugFollowsTitle" value="1" /> : null}
				{article === null ? <input type="hidden" name="fromNewPage" value="1" /> : null}
				{/* The writing column (title, then text and its preview) beside the settings: one
				    column on a phone, settings after the text. */}
				<div className="editor-layout">
					<div className="editor-main">
						<Field
							name="title"
							label={i18n._(fieldLabels.title)}
							defaultValue={value('title', article?.title ?? '')}
							error={errors.title}
							required
							maxLength={200}
						/>
						<TextAreaField
							ref={bodyField}
							name="body"
							label={i18n._(fieldLabels.body)}
							hint={t({
								message:
									'**bold**, _italic_, ## heading, [link](https://…), - list item, ![description](image address "caption"), or the buttons: Ctrl+B, Ctrl+I, Ctrl+K.',
								comment:
									'Markdown examples: translate the words, keep the marks (**, _, ##, [](), -, ![](), quotes) and the keys',
							})}
							tools={<MarkdownToolbar id="body-toolbar" textareaId="body" />}
							value={body}
							onChange={(event) => setBody(event.currentTarget.value)}
							onKeyDown={(event) => {
								markdownShortcut(event, 'body-toolbar')
								continueList(event)
							}}
							onPaste={images.onPaste}
							onDragOver={images.onDragOver}
							onDrop={images.onDrop}
							error={errors.body}
							rows={18}
							required
						/>
						<MarkdownImagePicker images={images} />
						<section className="editor-preview" aria-labelledby="preview-heading">
							<h2 id="preview-heading">
								<Trans>Preview</Trans>
							</h2>
							{/* In the text's own language and direction, as the public page has it. */}
							<div
								className="prose"
								{...textLanguage(language || siteLanguage)}
								// biome-ignore lint/security/noDangerouslySetInnerHtml: rendered and sanitised on the server by the public page's own pipeline (markdown.server.ts)
								dangerouslySetInnerHTML={{ __html: previewHtml }}
							/>
						</section>
					</div>
					<section className="editor-settings" aria-labelledby="settings-heading">
						<h2 id="settings-heading">
							<Trans>Settings</Trans>
						</h2>
						<Field
							name="slug"
							label={i18n._(fieldLabels.slug)}
							hint={
								slug.trim() === '' ? (
									page ? (
										t`Made from the title when the page is saved.`
									) : (
										t`Made from the title when the article is saved.`
									)
								) : slugFollowing ? (
									page ? (
										<Trans>
											The page's address: <bdi dir="ltr">{address}</bdi>. It follows the title until
											the page is first published, unless you type another.
										</Trans>
									) : (
										<Trans>
											The article's address: <bdi dir="ltr">{address}</bdi>. It follows the title
											until the article is first published, unless you type another.
										</Trans>
									)
								) : page ? (
									<Trans>
										The page's address: <bdi dir="ltr">{address}</bdi>. Leave empty on a new page to
										make it from the title.
									</Trans>
								) : (
									<Trans>
										The article's address: <bdi dir="ltr">{address}</bdi>. Leave empty on a new
										article to make it from the title.
									</Trans>
								)
							}
							value={slug}
							onChange={(event) => {
								setSlugTyped(true)
								setSlug(event.currentTarget.value)
							}}
							error={
								reservedSlug ? [reservedSlug] : (errors.slug ?? (slugLive ? [slugLive] : undefined))
							}
							maxLength={80}
							autoCapitalize="off"
							spellCheck={false}
						/>
						<TextAreaField
							name="summary"
							label={i18n._(fieldLabels.summary)}
							hint={t`One or two sentences shown in lists and link previews.`}
							defaultValue={value('summary', article?.summary ?? '')}
							error={errors.summary}
							rows={2}
							maxLength={300}
						/>
						{kind === 'page' ? null : (
							<>
								<Field
									name="tags"
									label={i18n._(fieldLabels.tags)}
									hint={t`Separated by commas, e.g. soil, food. Each tag has a page listing its articles.`}
									defaultValue={value('tags', article?.tags.join(', ') ?? '')}
									error={
										errors.tags ??
										Object.entries(errors).find(([key]) => key.startsWith('tags.'))?.[1]
									}
								/>
								<Field
									name="authors"
									label={i18n._(fieldLabels.authors)}
									hint={t`Separated by commas. A name not known yet gets a profile of its own.`}
									defaultValue={value('authors', (article?.authors ?? defaultAuthors).join(', '))}
									error={
										errors.authors ??
										Object.entries(errors).find(([key]) => key.startsWith('authors.'))?.[1]
									}
								/>
							</>
						)}
						<ImageUploadField
							maxBytes={uploadMaxBytes}
							name="cover"
							label={i18n._(fieldLabels.cover)}
							hint={t`Optional: upload an image, or give an https address.`}
							defaultValue={value('cover', article?.coverImageUrl ?? '')}
							errors={errors.cover}
						/>
						<Field
							name="coverAlt"
							label={i18n._(fieldLabels.coverAlt)}
							hint={t`Required with a cover image: what it shows, for people who cannot see it.`}
							defaultValue={value('coverAlt', article?.coverImageAlt ?? '')}
							error={errors.coverAlt}
							maxLength={300}
						/>
						<LanguageFields
							language={value('language', article?.language ?? '')}
							chosen={language}
							onChoose={setLanguage}
							translationOf={value('translationOf', article?.translationOf ?? '')}
							otherLanguages={article?.otherLanguages ?? []}
							errors={errors}
							text={debouncedBody}
						/>
						<fieldset className="editor-seo">
							<legend>
								<Trans>Search engines and shared links</Trans>
							</legend>
							<Field
								name="seoTitle"
								label={i18n._(fieldLabels.seoTitle)}
								hint={t`Shown in search results instead of the title; leave empty to use the title. About 60 characters fit.`}
								defaultValue={value('seoTitle', article?.seoTitle ?? '')}
								error={errors.seoTitle}
								maxLength={120}
							/>
							<TextAreaField
								name="seoDescription"
								label={i18n._(fieldLabels.seoDescription)}
								hint={t`Instead of the summary; leave empty to use it. About 155 characters fit.`}
								defaultValue={value('seoDescription', article?.seoDescription ?? '')}
								error={errors.seoDescription}
								rows={2}
								maxLength={300}
							/>
							<ImageUploadField
								maxBytes={uploadMaxBytes}
								name="socialImage"
								label={i18n._(fieldLabels.socialImage)}
								hint={t`Shown when the link is shared, instead of the cover; 1200 × 630 pixels suits every network.`}
								defaultValue={value('socialImage', article?.socialImageUrl ?? '')}
								errors={errors.socialImage}
							/>
						</fieldset>
						{kind === 'page' ? null : (
							<NotifyField
								notify={article?.notify ?? true}
								notifiedAt={article?.notifiedAt ?? null}
								published={article?.status === 'published'}
								typed={values}
							/>
						)}
						{kind === 'page' ? null : (
							<EmailField
								email={article?.email ?? true}
								emailedAt={article?.emailedAt ?? null}
								published={article?.status === 'published'}
								typed={values}
							/>
						)}
					</section>
				</div>
				{/* Always in view (sticky): what happened last, and the buttons that save. */}
				<div className="editor-bar">
					<p role="status" className="editor-status">
						{autosave.state !== 'idle' ? t`Saving…` : status}
					</p>
					<div className="editor-actions">
						{savedId !== null ? (
							// The last saved version, in a tab of its own: the editor stays as it is.
							<Link
								to={`/admin/articles/${savedId}/preview`}
								target="_blank"
								rel="noopener"
								className="button secondary"
							>
								<Trans>
									Preview<span className="visually-hidden"> (opens in a new tab)</span>
								</Trans>
							</Link>
						) : null}
						{article?.status === 'published' ? (
							<button type="submit" name="intent" value="publish" disabled={saving}>
								{page ? (
									<Trans>Update the published page</Trans>
								) : (
									<Trans>Update the published article</Trans>
								)}
							</button>
						) : (
							<>
								<button type="submit" name="intent" value="draft" disabled={saving}>
									{scheduled ? (
										<Trans>Save as draft (cancel the schedule)</Trans>
									) : (
										<Trans>Save draft</Trans>
									)}
								</button>
								<button type="submit" name="intent" value="publish" disabled={saving}>
									<Trans>Publish now</Trans>
								</button>
							</>
						)}
					</div>
				</div>
				{/* After the bar: its button must not be the form's first (Enter in a field saves). */}
				{article?.status !== 'published' ? (
					<ScheduleFields
						publishAt={article?.publishAt ?? null}
						scheduled={scheduled}
						typed={values?.publishAt}
						error={errors.publishAt}
						busy={saving}
					/>
				) : null}
			</Form>
			{article ? <DangerZone article={article} version={version} busy={saving} /> : null}
			{blocker.state === 'blocked' ? (
				<LeaveDialog onStay={() => blocker.reset()} onLeave={() => blocker.proceed()} />
			) : null}
		</>
	)
}
