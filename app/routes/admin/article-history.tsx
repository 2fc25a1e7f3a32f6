// An article's history: every save kept (who, when, what changed), each compared with the one
// before it or with the article as it stands, and any of them restored in one click. The restore
// is itself a revision (docs/decisions/029-revisions.md).
import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { ErrorSummary } from '#app/components/ui/error-summary.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { restoreRevision } from '#app/features/articles/editor.server.ts'
import { type DiffPart, revisionDiff } from '#app/features/articles/revision-diff.server.ts'
import { revisionFieldMessages } from '#app/features/articles/revision-labels.ts'
import { editorContext } from '#app/features/auth/session.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import {
	changedFields,
	type RevisionKind,
	type RevisionSummary,
	revisionSnapshotOf,
} from '#storage/port/revisions.ts'
import type { Route } from './+types/article-history'

function articleId(raw: string): number {
	const id = Number(raw)
	if (!Number.isSafeInteger(id) || id <= 0) throw data('There is no article here.', 404)
	return id
}

function whole(text: string | null): number | undefined {
	return text && /^\d{1,15}$/.test(text) ? Number(text) : undefined
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	const title = loaderData?.article.title ?? i18n._(msg`Article`)
	return [
		{ title: i18n._(msg`History: ${title} · Editor · Canopy`) },
		{ name: 'robots', content: 'noindex' },
	]
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const id = articleId(params.id)
	const [article, revisions] = await Promise.all([
		storage.articles.findById(id),
		storage.revisions.list(id),
	])
	if (!article) throw data('There is no article here; it may have been deleted.', 404)
	const query = new URL(request.url).searchParams
	const wanted = whole(query.get('revision')) ?? revisions[0]?.id
	const selected = wanted === undefined ? undefined : await storage.revisions.get(id, wanted)
	const againstCurrent = query.get('compare') === 'current'
	const current = revisionSnapshotOf(article)
	let diff: ReturnType<typeof revisionDiff> = []
	let isCurrent = false
	// Whether a revision was kept before the selected one (else it is the first kept).
	let hasPrevious = false
	if (selected) {
		const i18n = await requestI18n(request, context)
		const status = { draft: i18n._(msg`Draft`), published: i18n._(msg`Published`) }
		isCurrent = selected.kind !== 'pending' && changedFields(selected, current).length === 0
		if (againstCurrent) diff = revisionDiff(current, selected, status)
		else {
			// The revision before it: what this save changed.
			const at = revisions.findIndex((revision) => revision.id === selected.id)
			const before = revisions.slice(at + 1).find((revision) => revision.kind !== 'pending')
			const previous = before && (await storage.revisions.get(id, before.id))
			diff = previous ? revisionDiff(previous, selected, status) : []
			hasPrevious = previous !== undefined
		}
	}
	return {
		article: {
			id,
			title: article.title,
			kind: article.kind,
			version: article.version,
			status: article.status,
		},
		revisions,
		// As the list has it: the content stays on the server, its differences are what travel.
		selected: selected && revisions.find((revision) => revision.id === selected.id),
		diff,
		againstCurrent,
		isCurrent,
		hasPrevious,
	}
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const { storage } = context.get(servicesContext)
	const editor = context.get(editorContext)
	const id = articleId(params.id)
	const form = await readForm(request)
	const revision = whole(String(form.get('revision') ?? ''))
	const version = whole(String(form.get('version') ?? ''))
	if (revision === undefined || version === undefined) {
		const i18n = await requestI18n(request, context)
		return data(
			{
				errors: {
					revision: [i18n._(msg`Choose a revision to restore, then press Restore again.`)],
				},
			},
			400,
		)
	}
	const result = await restoreRevision(storage, id, revision, version, {
		id: editor.id,
		name: editor.name,
	})
	if (result.ok) throw redirect(`/admin/articles/${id}?saved=restore`)
	if (result.kind === 'invalid') return data({ errors: result.errors }, 400)
	if (result.kind === 'conflict') {
		const i18n = await requestI18n(request, context)
		const title = result.current.title
		return data(
			{
				errors: {
					revision: [
						title
							? i18n._(
									msg`Nothing was restored: “${title}” was saved again after this page opened. Look at the history again, then restore.`,
								)
							: i18n._(
									msg`Nothing was restored: the article was saved again after this page opened. Look at the history again, then restore.`,
								),
					],
				},
			},
			409,
		)
	}
	throw data('This article no longer exists: someone deleted it.', 404)
}

/** A save of a published article is an update; otherwise the kind says it. */
function kindLabel(revision: RevisionSummary): MessageDescriptor {
	return revision.kind === 'saved' && revision.status === 'published'
		? msg`Updated`
		: kindLabels[revision.kind]
}

const kindLabels: Record<RevisionKind, MessageDescriptor> = {
	saved: msg`Saved`,
	published: msg`Published`,
	unpublished: msg`Unpublished`,
	autosaved: msg`Autosaved`,
	restored: msg`Restored`,
	pending: msg`Changes not live yet`,
}

/** The labels a person reads, for the field names an error may carry. */
const errorLabels: Record<string, MessageDescriptor> = {
	...revisionFieldMessages,
	body: msg`Text`,
	cover: msg`Cover image`,
	coverAlt: msg`Cover image description`,
	socialImage: msg`Image for shared links`,
	revision: msg`Revision`,
}

// A list of the fields changed, as the language writes one ("Text, Summary"): one per language.
const fieldLists = new Map<string, Intl.ListFormat>()

function fieldList(i18n: I18n, labels: string[]): string {
	let format = fieldLists.get(i18n.locale)
	if (!format) {
		format = new Intl.ListFormat(i18n.locale, { type: 'unit', style: 'short' })
		fieldLists.set(i18n.locale, format)
	}
	return format.format(labels)
}

function Changed({ revision, first }: { revision: RevisionSummary; first: boolean }) {
	const { i18n } = useLingui()
	if (revision.kind === 'restored' && revision.restoredFrom !== null)
		return (
			<span className="revision-changed">
				<Trans>an earlier revision brought back</Trans>
			</span>
		)
	if (revision.changed.length === 0)
		return (
			<span className="revision-changed">
				{first ? <Trans>the first kept</Trans> : <Trans>nothing changed</Trans>}
			</span>
		)
	return (
		<span className="revision-changed">
			{fieldList(
				i18n,
				revision.changed.map((field) => i18n._(revisionFieldMessages[field])),
			)}
		</span>
	)
}

/**
 * What kind of save it was, when, and by whom: "Saved 3 May 2026, 10:04 by Inês Sousa"; in the
 * list, the kind in bold.
 */
function RevisionTitle({ revision, list }: { revision: RevisionSummary; list?: boolean }) {
	const { i18n } = useLingui()
	const kind = i18n._(kindLabel(revision))
	const byName = revision.byName
	if (list)
		return byName ? (
			<Trans>
				<strong>{kind}</strong> <LocalTime iso={revision.savedAt} time /> by {byName}
			</Trans>
		) : (
			<Trans>
				<strong>{kind}</strong> <LocalTime iso={revision.savedAt} time />
			</Trans>
		)
	return byName ? (
		<Trans>
			{kind} <LocalTime iso={revision.savedAt} time /> by {byName}
		</Trans>
	) : (
		<Trans>
			{kind} <LocalTime iso={revision.savedAt} time />
		</Trans>
	)
}

function DiffText({ parts }: { parts: DiffPart[] }) {
	return (
		<p className="diff">
			{parts.map((part, index) => {
				const text = part.text
				return part.change === 'added' ? (
					// biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff, in order, never reordered
					<ins key={index}>
						<Trans>
							<span className="visually-hidden">[added: </span>
							{text}
							<span className="visually-hidden">]</span>
						</Trans>
					</ins>
				) : part.change === 'removed' ? (
					// biome-ignore lint/suspicious/noArrayIndexKey: as above
					<del key={index}>
						<Trans>
							<span className="visually-hidden">[removed: </span>
							{text}
							<span className="visually-hidden">]</span>
						</Trans>
					</del>
				) : (
					// biome-ignore lint/suspicious/noArrayIndexKey: as above
					<span key={index}>{text}</span>
				)
			})}
		</p>
	)
}

export default function ArticleHistory({ loaderData, actionData }: Route.ComponentProps) {
	const { article, revisions, selected, diff, againstCurrent, isCurrent, hasPrevious } = loaderData
	const busy = useNavigation().state === 'submitting'
	const { t, i18n } = useLingui()
	const page = article.kind === 'page'
	const title = article.title
	const labels = Object.fromEntries(
		Object.entries(errorLabels).map(([name, label]) => [name, i18n._(label)]),
	)
	const link = (id: number, current: boolean) =>
		`/admin/articles/${article.id}/history?revision=${id}${current ? '&compare=current' : ''}`
	return (
		<>
			<p className="breadcrumb">
				<Link to={`/admin/articles/${article.id}`}>
					<Trans>Back to the editor</Trans>
				</Link>
			</p>
			<h1>
				<Trans>History of “{title}”</Trans>
			</h1>
			<p className="hint">
				<Trans>
					Every save is kept, newest first; autosaves made in one sitting are one entry. Restoring
					saves that version again; the text it replaces stays here.
				</Trans>
			</p>
			<ErrorSummary
				errors={actionData?.errors ?? {}}
				labels={labels}
				title={t`Nothing was restored.`}
			/>
			<div className="history-layout">
				<nav aria-label={t`Revisions`} className="revision-nav">
					<ol className="revision-list">
						{revisions.map((revision, index) => (
							<li key={revision.id}>
								<Link
									to={link(revision.id, againstCurrent)}
									aria-current={revision.id === selected?.id ? 'true' : undefined}
								>
									<RevisionTitle revision={revision} list />
									<br />
									<Changed revision={revision} first={index === revisions.length - 1} />
								</Link>
							</li>
						))}
					</ol>
				</nav>
				{selected ? (
					<section className="revision-detail" aria-labelledby="revision-heading">
						<h2 id="revision-heading">
							<RevisionTitle revision={selected} />
						</h2>
						<p className="revision-compare">
							{againstCurrent ? (
								page ? (
									<Trans>
										Compared with the page as it stands ·{' '}
										<Link to={link(selected.id, false)}>Show what this save changed</Link>
									</Trans>
								) : (
									<Trans>
										Compared with the article as it stands ·{' '}
										<Link to={link(selected.id, false)}>Show what this save changed</Link>
									</Trans>
								)
							) : page ? (
								<Trans>
									What this save changed ·{' '}
									<Link to={link(selected.id, true)}>Compare with the page as it stands</Link>
								</Trans>
							) : (
								<Trans>
									What this save changed ·{' '}
									<Link to={link(selected.id, true)}>Compare with the article as it stands</Link>
								</Trans>
							)}
						</p>
						{diff.length === 0 ? (
							<p>
								{againstCurrent || isCurrent ? (
									page ? (
										<Trans>This is the page as it stands.</Trans>
									) : (
										<Trans>This is the article as it stands.</Trans>
									)
								) : hasPrevious ? (
									<Trans>Nothing changed from the revision before it.</Trans>
								) : (
									<Trans>Nothing to compare: this is the first revision kept.</Trans>
								)}
							</p>
						) : (
							diff.map((field) => (
								<section key={field.field} className="diff-field">
									<h3>{i18n._(revisionFieldMessages[field.field])}</h3>
									<DiffText parts={field.parts} />
								</section>
							))
						)}
						{selected.kind === 'pending' ? (
							<p>
								<Trans>
									These changes are in the editor now.{' '}
									<Link to={`/admin/articles/${article.id}`}>Open them in the editor</Link>
								</Trans>
							</p>
						) : isCurrent ? null : (
							<Form method="post" className="revision-restore">
								<input type="hidden" name="revision" value={selected.id} />
								<input type="hidden" name="version" value={article.version} />
								<button type="submit" disabled={busy}>
									<Trans>Restore this version</Trans>
								</button>
								<span className="hint">
									{article.status === 'published' ? (
										<>
											{' '}
											{page ? (
												<Trans>Readers of the published page see it at once.</Trans>
											) : (
												<Trans>Readers of the published article see it at once.</Trans>
											)}
										</>
									) : null}
								</span>
							</Form>
						)}
					</section>
				) : (
					<p>
						<Trans>No revisions are kept yet.</Trans>
					</p>
				)}
			</div>
		</>
	)
}
