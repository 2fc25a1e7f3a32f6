import { msg } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useEffect } from 'react'
import { data, Form, Link, redirect, useFetcher, useLocation, useNavigation } from 'react-router'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { editorContext } from '#app/features/auth/session.server.ts'
import type { ImportReport } from '#app/features/import/import-report.ts'
import { importChecked, isStalled } from '#app/features/import/move-in-admin.server.ts'
import { MoveInState } from '#app/features/import/move-in-admin-parts.tsx'
import { actionAnswer } from '#app/lib/action-answer.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { FieldErrors } from '#app/lib/field-errors.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import stylesheet from '#app/styles/admin-move-in.css?url'
import type { Route } from './+types/move-in-run'

// One import from Ghost or WordPress (admins only): its progress while its process runs (the
// page asks again every second), then its report: what came across, what could not and why,
// what to look at. A checked file can be imported from here without sending it again.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	const name = loaderData?.run.fileName ?? ''
	return [
		{ title: i18n._(msg`${name} · Move in · Canopy`) },
		{ name: 'robots', content: 'noindex' },
	]
}

export async function loader({ context, params }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const run = await storage.moveIns.find(params.id)
	if (!run) throw data(null, { status: 404 })
	return {
		run: { ...run, report: run.report as ImportReport | null, stalled: isStalled(run, new Date()) },
	}
}

export async function action({ context, params, request }: Route.ActionArgs) {
	const { storage, moveIn } = context.get(servicesContext)
	const i18n = await requestI18n(request, context)
	const run = await storage.moveIns.find(params.id)
	if (!run) throw data(null, { status: 404 })
	if (!run.dryRun || run.state !== 'done')
		return data(
			{
				errors: {
					form: [i18n._(msg`Only a finished check can be imported from here.`)],
				} as FieldErrors,
			},
			400,
		)
	const started = await importChecked(storage, moveIn, run, context.get(editorContext).id)
	if (started === 'busy')
		return data(
			{
				errors: {
					form: [i18n._(msg`An import is under way: wait for it to finish, then start the next.`)],
				} as FieldErrors,
			},
			409,
		)
	if (started === 'gone')
		return data(
			{
				errors: {
					form: [
						i18n._(
							msg`The checked files are no longer here (they are kept a day). Send them again from Move in.`,
						),
					],
				} as FieldErrors,
			},
			410,
		)
	return redirect(`/admin/move-in/${started.id}`)
}

type Run = Route.ComponentProps['loaderData']['run']

export default function MoveInRun({ loaderData, actionData }: Route.ComponentProps) {
	// While it runs, the page asks this route alone for the run every second (not the layouts'
	// loaders above it, as a revalidation would).
	const poll = useFetcher<typeof loader>()
	const run = poll.data?.run.id === loaderData.run.id ? poll.data.run : loaderData.run
	const running = run.state === 'running' && !run.stalled
	const busy = useNavigation().state === 'submitting'
	const { errors } = actionAnswer(actionData)
	const { pathname } = useLocation()
	useEffect(() => {
		if (!running) return
		const timer = setInterval(() => {
			if (poll.state === 'idle') poll.load(pathname)
		}, 1_000)
		return () => clearInterval(timer)
	}, [running, poll, pathname])
	return (
		<>
			<p className="breadcrumb">
				<Link to="/admin/move-in">
					<Trans>Move in</Trans>
				</Link>
			</p>
			<h1 className="move-in-title">{run.fileName}</h1>
			<p>
				{run.format === 'ghost' ? 'Ghost' : 'WordPress'}
				{run.withImages ? (
					<>
						{' '}
						· <Trans>with images</Trans>
					</>
				) : null}{' '}
				· <LocalTime iso={run.startedAt} time /> · <MoveInState run={run} />
			</p>
			{errors.form ? (
				<p role="alert" className="form-error">
					{errors.form.join(' ')}
				</p>
			) : null}
			{running ? <Progress run={run} /> : null}
			{run.stalled ? (
				<p role="alert" className="form-error">
					<Trans>
						This import stopped when its server did. What came across before stays: start it again
						from Move in, and it brings the rest (what is here already is left as it is).
					</Trans>
				</p>
			) : null}
			{run.state === 'failed' ? (
				<p role="alert" className="form-error">
					{run.error}
				</p>
			) : null}
			{run.state === 'done' && run.report ? <Report report={run.report} /> : null}
			{run.state === 'done' && run.dryRun ? (
				<Form method="post" className="form move-in-again">
					<p>
						<Trans>Nothing was written. Import these files now, as checked?</Trans>
					</p>
					<button type="submit" disabled={busy}>
						<Trans>Import it now</Trans>
					</button>
				</Form>
			) : null}
		</>
	)
}

function Progress({ run }: { run: Run }) {
	const { posts, total, phase } = run.progress
	return (
		<section aria-labelledby="move-in-progress" className="move-in-progress">
			<h2 id="move-in-progress">
				<Trans>Progress</Trans>
			</h2>
			<p role="status">
				{phase === 'starting' ? <Trans>Starting…</Trans> : null}
				{phase === 'unpacking' ? <Trans>Unpacking the images…</Trans> : null}
				{phase === 'checking' ? (
					<Trans>Reading the whole file once before writing: {posts} posts so far.</Trans>
				) : null}
				{phase === 'importing' && total ? (
					<Trans>
						{posts} of {total} posts.
					</Trans>
				) : null}
				{phase === 'importing' && !total ? <Trans>{posts} posts read.</Trans> : null}
				{phase === 'finishing' ? <Trans>Tags, authors and old addresses…</Trans> : null}
			</p>
			{phase === 'importing' && total ? <progress value={posts} max={total} /> : <progress />}
			<p className="hint">
				<Trans>
					It runs on the server: you may leave this page. <Link to=".">See the latest</Link> (the
					page updates itself when JavaScript is on).
				</Trans>
			</p>
		</section>
	)
}

function Report({ report }: { report: ImportReport }) {
	const { t } = useLingui()
	const counts: [number, string][] = [
		[report.articles, t`Articles`],
		[report.pages, t`Pages`],
		[report.tags, t`Tags`],
		[report.authors, t`Authors`],
		[report.images, t`Images`],
		[report.redirects, t`Old addresses redirected`],
		[report.existing, t`Already here, left as they are`],
	]
	const skipped = report.skipped.length
	const notes = report.notes.length
	return (
		<section aria-labelledby="move-in-report">
			<h2 id="move-in-report">
				{report.dryRun ? <Trans>What would come across</Trans> : <Trans>What came across</Trans>}
			</h2>
			<dl className="move-in-counts">
				{counts.map(([count, label]) => (
					<div key={label}>
						<dt>{label}</dt>
						<dd>{count.toLocaleString()}</dd>
					</div>
				))}
			</dl>
			{skipped > 0 ? (
				<>
					<h3>
						{report.dryRun ? (
							<Plural
								value={skipped}
								one="# post cannot come across"
								other="# posts cannot come across"
							/>
						) : (
							<Plural
								value={skipped}
								one="# post did not come across"
								other="# posts did not come across"
							/>
						)}
					</h3>
					<ul className="move-in-list">
						{report.skipped.map((entry) => (
							<li key={`${entry.sourceId}-${entry.title}`}>
								<strong>{entry.title || t`Untitled`}</strong>: {entry.reason}
							</li>
						))}
					</ul>
				</>
			) : null}
			{notes > 0 ? (
				<>
					<h3>
						<Plural value={notes} one="# thing to look at" other="# things to look at" />
					</h3>
					<ul className="move-in-list">
						{report.notes.map((entry) => (
							<li key={`${entry.sourceId}-${entry.note}`}>
								<strong>{entry.title || t`Untitled`}</strong>: {entry.note}
							</li>
						))}
					</ul>
				</>
			) : null}
		</section>
	)
}
