// An article's history: every save kept (who, when, what changed), each compared with the one
// before it or with the article as it stands, and any of them restored in one click. The restore
// is itself a revision (docs/decisions/029-revisions.md).
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { ErrorSummary } from '#app/components/ui/error-summary.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { restoreRevision } from '#app/features/articles/editor.server.ts'
import { type DiffPart, revisionDiff } from '#app/features/articles/revision-diff.server.ts'
import { revisionFieldLabels } from '#app/features/articles/revision-labels.ts'
import { editorContext } from '#app/features/auth/session.server.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { readForm } from '#app/lib/form.server.ts'
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

export function meta({ loaderData }: Route.MetaArgs) {
	return [
		{ title: `History: ${loaderData?.article.title ?? 'Article'} · Editor · Canopy` },
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
	if (selected) {
		isCurrent = selected.kind !== 'pending' && changedFields(selected, current).length === 0
		if (againstCurrent) diff = revisionDiff(current, selected)
		else {
			// The revision before it: what this save changed.
			const at = revisions.findIndex((revision) => revision.id === selected.id)
			const before = revisions.slice(at + 1).find((revision) => revision.kind !== 'pending')
			const previous = before && (await storage.revisions.get(id, before.id))
			diff = previous ? revisionDiff(previous, selected) : []
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
	}
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const { storage } = context.get(servicesContext)
	const editor = context.get(editorContext)
	const id = articleId(params.id)
	const form = await readForm(request)
	const revision = whole(String(form.get('revision') ?? ''))
	const version = whole(String(form.get('version') ?? ''))
	if (revision === undefined || version === undefined)
		return data(
			{ errors: { revision: ['Choose a revision to restore, then press Restore again.'] } },
			400,
		)
	const result = await restoreRevision(storage, id, revision, version, {
		id: editor.id,
		name: editor.name,
	})
	if (result.ok) throw redirect(`/admin/articles/${id}?saved=restore`)
	if (result.kind === 'invalid') return data({ errors: result.errors }, 400)
	if (result.kind === 'conflict')
		return data(
			{
				errors: {
					revision: [
						`Nothing was restored: ${result.current.title ? `“${result.current.title}”` : 'the article'} was saved again after this page opened. Look at the history again, then restore.`,
					],
				},
			},
			409,
		)
	throw data('This article no longer exists: someone deleted it.', 404)
}

/** A save of a published article is an update; otherwise the kind says it. */
function kindLabel(revision: RevisionSummary): string {
	return revision.kind === 'saved' && revision.status === 'published'
		? 'Updated'
		: kindLabels[revision.kind]
}

const kindLabels: Record<RevisionKind, string> = {
	saved: 'Saved',
	published: 'Published',
	unpublished: 'Unpublished',
	autosaved: 'Autosaved',
	restored: 'Restored',
	pending: 'Changes not live yet',
}

/** The labels a person reads, for the field names an error may carry. */
const errorLabels: Record<string, string> = {
	...revisionFieldLabels,
	body: 'Text',
	cover: 'Cover image',
	coverAlt: 'Cover image description',
	socialImage: 'Image for shared links',
	revision: 'Revision',
}

function Changed({ revision }: { revision: RevisionSummary }) {
	if (revision.kind === 'restored' && revision.restoredFrom !== null)
		return <span className="revision-changed">an earlier revision brought back</span>
	if (revision.changed.length === 0) return <span className="revision-changed">the first kept</span>
	return (
		<span className="revision-changed">
			{revision.changed.map((field) => revisionFieldLabels[field]).join(', ')}
		</span>
	)
}

function DiffText({ parts }: { parts: DiffPart[] }) {
	return (
		<p className="diff">
			{parts.map((part, index) =>
				part.change === 'added' ? (
					// biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff, in order, never reordered
					<ins key={index}>
						<span className="visually-hidden">[added: </span>
						{part.text}
						<span className="visually-hidden">]</span>
					</ins>
				) : part.change === 'removed' ? (
					// biome-ignore lint/suspicious/noArrayIndexKey: as above
					<del key={index}>
						<span className="visually-hidden">[removed: </span>
						{part.text}
						<span className="visually-hidden">]</span>
					</del>
				) : (
					// biome-ignore lint/suspicious/noArrayIndexKey: as above
					<span key={index}>{part.text}</span>
				),
			)}
		</p>
	)
}

export default function ArticleHistory({ loaderData, actionData }: Route.ComponentProps) {
	const { article, revisions, selected, diff, againstCurrent, isCurrent } = loaderData
	const busy = useNavigation().state === 'submitting'
	const noun = article.kind === 'page' ? 'page' : 'article'
	const link = (id: number, current: boolean) =>
		`/admin/articles/${article.id}/history?revision=${id}${current ? '&compare=current' : ''}`
	return (
		<>
			<p className="breadcrumb">
				<Link to={`/admin/articles/${article.id}`}>Back to the editor</Link>
			</p>
			<h1>History of “{article.title}”</h1>
			<p className="hint">
				Every save is kept, newest first; autosaves made in one sitting are one entry. Restoring
				saves that version again; the text it replaces stays here.
			</p>
			<ErrorSummary
				errors={actionData?.errors ?? {}}
				labels={errorLabels}
				title="Nothing was restored."
			/>
			<div className="history-layout">
				<nav aria-label="Revisions" className="revision-nav">
					<ol className="revision-list">
						{revisions.map((revision) => (
							<li key={revision.id}>
								<Link
									to={link(revision.id, againstCurrent)}
									aria-current={revision.id === selected?.id ? 'true' : undefined}
								>
									<strong>{kindLabel(revision)}</strong> <LocalTime iso={revision.savedAt} time />
									{revision.byName ? ` by ${revision.byName}` : null}
									<br />
									<Changed revision={revision} />
								</Link>
							</li>
						))}
					</ol>
				</nav>
				{selected ? (
					<section className="revision-detail" aria-labelledby="revision-heading">
						<h2 id="revision-heading">
							{kindLabel(selected)} <LocalTime iso={selected.savedAt} time />
							{selected.byName ? ` by ${selected.byName}` : null}
						</h2>
						<p className="revision-compare">
							{againstCurrent ? (
								<>
									Compared with the {noun} as it stands ·{' '}
									<Link to={link(selected.id, false)}>Show what this save changed</Link>
								</>
							) : (
								<>
									What this save changed ·{' '}
									<Link to={link(selected.id, true)}>Compare with the {noun} as it stands</Link>
								</>
							)}
						</p>
						{diff.length === 0 ? (
							<p>
								{againstCurrent || isCurrent
									? `This is the ${noun} as it stands.`
									: 'Nothing to compare: this is the first revision kept.'}
							</p>
						) : (
							diff.map((field) => (
								<section key={field.field} className="diff-field">
									<h3>{field.label}</h3>
									<DiffText parts={field.parts} />
								</section>
							))
						)}
						{selected.kind === 'pending' ? (
							<p>
								These changes are in the editor now.{' '}
								<Link to={`/admin/articles/${article.id}`}>Open them in the editor</Link>
							</p>
						) : isCurrent ? null : (
							<Form method="post" className="revision-restore">
								<input type="hidden" name="revision" value={selected.id} />
								<input type="hidden" name="version" value={article.version} />
								<button type="submit" disabled={busy}>
									Restore this version
								</button>
								<span className="hint">
									{article.status === 'published'
										? ` Readers of the published ${noun} see it at once.`
										: null}
								</span>
							</Form>
						)}
					</section>
				) : (
					<p>No revisions are kept yet.</p>
				)}
			</div>
		</>
	)
}
