import { rm } from 'node:fs/promises'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { Field } from '#app/components/ui/field.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { editorContext } from '#app/features/auth/session.server.ts'
import { isStalled, newRunId, recordRun } from '#app/features/import/move-in-admin.server.ts'
import { MoveInState } from '#app/features/import/move-in-admin-parts.tsx'
import { diskRoom, receiveMoveIn } from '#app/features/import/move-in-upload.server.ts'
import { actionAnswer } from '#app/lib/action-answer.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import type { FieldErrors } from '#app/lib/field-errors.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import stylesheet from '#app/styles/admin-move-in.css?url'
import type { Route } from './+types/move-in'

// Moving in (admins only): a Ghost or WordPress export, and a .zip of its images, uploaded and
// imported by a process of its own (server/portable/move-in-run.ts), checked first by default.
// The same importer as the command line's import:ghost and import:wordpress.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta({ matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	return [
		{ title: i18n._(msg`Move in from Ghost or WordPress · Canopy`) },
		{ name: 'robots', content: 'noindex' },
	]
}

export async function loader({ context }: Route.LoaderArgs) {
	const { storage, moveIn } = context.get(servicesContext)
	const runs = await storage.moveIns.recent(10)
	const now = new Date()
	return {
		runs: runs.map((run) => ({ ...run, report: null, stalled: isStalled(run, now) })),
		maxMegabytes: Math.round(moveIn.maxBytes / 1024 / 1024),
	}
}

export async function action({ context, request }: Route.ActionArgs) {
	const { storage, moveIn } = context.get(servicesContext)
	const i18n = await requestI18n(request, context)
	const [latest] = await storage.moveIns.recent(1)
	const busy: FieldErrors = {
		form: [i18n._(msg`An import is under way: wait for it to finish, then start the next.`)],
	}
	// Before the files are sent: no one waits minutes for an upload that cannot run.
	if (latest?.state === 'running' && !isStalled(latest, new Date()))
		return data({ errors: busy }, 409)
	const id = newRunId()
	const folder = moveIn.folder(id)
	const declared = Number(request.headers.get('content-length') ?? Number.NaN)
	const room = await diskRoom(
		folder,
		Number.isFinite(declared) ? declared : undefined,
		moveIn.maxBytes,
	)
	if (!room.ok) {
		const free = Math.floor(room.freeBytes / 1024 / 1024)
		const needed = Math.ceil(room.neededBytes / 1024 / 1024)
		return data(
			{
				errors: {
					form: [
						i18n._(
							msg`The server’s disk has ${free} MB free; this import needs about ${needed} MB (the files, their images unpacked and stored, and room to spare). Make room on the server, or import with the command line.`,
						),
					],
				},
			},
			507,
		)
	}
	const received = await receiveMoveIn(request, folder, moveIn.maxBytes)
	if (!received.ok) return data({ errors: received.errors }, received.status)
	// Checked again: another import may have started while these files arrived.
	const run = await recordRun(storage, {
		id,
		...received.upload,
		startedBy: context.get(editorContext).id,
	})
	if (!run) {
		await rm(folder, { recursive: true, force: true })
		return data({ errors: busy }, 409)
	}
	moveIn.start(id)
	return redirect(`/admin/move-in/${id}`)
}

export default function MoveIn({ loaderData, actionData }: Route.ComponentProps) {
	const { runs, maxMegabytes } = loaderData
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting'
	const { errors } = actionAnswer(actionData)
	const { t } = useLingui()
	const ghostPath = 'Settings → Advanced → Import/Export → Export'
	const wordpressPath = 'Tools → Export → All content'
	const ghostCommand = 'npm run cli -- import:ghost'
	const wordpressCommand = 'npm run cli -- import:wordpress'
	return (
		<>
			<h1>
				<Trans>Move in from Ghost or WordPress</Trans>
			</h1>
			<p>
				<Trans>
					Bring a site’s posts, pages, tags, authors and images here: posts keep their addresses,
					dates and authors, images are stored without their location data, and the old addresses
					lead to the new ones. Nobody is notified or mailed. Running it again adds only what is
					new.
				</Trans>
			</p>
			{errors.form ? (
				<p role="alert" className="form-error">
					{errors.form.join(' ')}
				</p>
			) : null}
			<Form method="post" encType="multipart/form-data" className="form move-in-form">
				<Field
					name="export"
					id="move-in-export"
					type="file"
					label={t`Export file`}
					hint={t`Ghost: ${ghostPath} (a .json file). WordPress: ${wordpressPath} (an .xml file).`}
					accept=".json,.xml,application/json,application/xml,text/xml"
					required
					error={errors.export}
				/>
				<Field
					name="images"
					id="move-in-images"
					type="file"
					label={t`Images (optional)`}
					hint={t`A .zip of Ghost’s content/images folder or WordPress’s wp-content/uploads folder. Without it, images stay at the old site’s address.`}
					accept=".zip,application/zip"
					error={errors.images}
				/>
				<p className="hint">
					<Trans>
						Each file may be up to {maxMegabytes} MB. A larger site moves in with the command line:{' '}
						<code>{ghostCommand}</code> or <code>{wordpressCommand}</code>.
					</Trans>
				</p>
				<fieldset className="radio-group">
					<legend>
						<Trans>What to do</Trans>
					</legend>
					<div className="checkbox-row">
						<input type="radio" id="move-in-check" name="mode" value="check" defaultChecked />
						<label htmlFor="move-in-check">
							<Trans>Check it first: report what would come across, write nothing</Trans>
						</label>
					</div>
					<div className="checkbox-row">
						<input type="radio" id="move-in-import" name="mode" value="import" />
						<label htmlFor="move-in-import">
							<Trans>Import it now</Trans>
						</label>
					</div>
				</fieldset>
				<button type="submit" disabled={busy}>
					{busy ? t`Sending the files…` : t`Start`}
				</button>
			</Form>

			{runs.length > 0 ? (
				<>
					<h2>
						<Trans>Earlier imports</Trans>
					</h2>
					<ul className="move-in-runs">
						{runs.map((run) => (
							<li key={run.id}>
								<Link to={`/admin/move-in/${run.id}`}>{run.fileName}</Link>{' '}
								<span className="move-in-when">
									<LocalTime iso={run.startedAt} time />
								</span>{' '}
								<MoveInState run={run} />
							</li>
						))}
					</ul>
				</>
			) : null}
		</>
	)
}
