// Pieces of the article editor that stand on their own: the notice when someone else saved
// first, the schedule fields, and the question before leaving with unsaved changes.
import { useEffect, useRef } from 'react'
import { Field } from '#app/components/ui/field.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { isoToLocalInput } from './editor-form.ts'

export function ConflictNotice({
	conflict,
	articleId,
	onOverride,
}: {
	conflict: { version: number; updatedAt: string }
	articleId: number | undefined
	onOverride: () => void
}) {
	return (
		<div role="alert" className="form-error conflict">
			<p>
				<strong>Someone else saved this article</strong> (
				<LocalTime iso={conflict.updatedAt} />, now version {conflict.version}) after you opened it.
				Your changes are <strong>not saved</strong>; they are still in the form below.
			</p>
			<p>
				Copy what you need and <a href={`/admin/articles/${articleId}`}>open their version</a>, or
				save yours over theirs.
			</p>
			<button type="button" onClick={onOverride}>
				Keep my version, and save over theirs with my next save
			</button>
		</div>
	)
}

/** When to publish, in the author's own time zone (sent along as an offset). */
export function ScheduleFields({
	publishAt,
	scheduled,
	typed,
	error,
	busy,
}: {
	publishAt: string | null
	scheduled: boolean
	/** What was typed before a refused save (the page re-rendered without JavaScript). */
	typed: string | undefined
	error: string[] | undefined
	busy: boolean
}) {
	const offsetRef = useRef<HTMLInputElement>(null)
	const publishAtRef = useRef<HTMLInputElement>(null)
	// Only the browser knows its zone: the stored time is shown in it after hydration.
	useEffect(() => {
		if (offsetRef.current) offsetRef.current.value = String(new Date().getTimezoneOffset())
		if (publishAtRef.current && publishAt && !typed)
			publishAtRef.current.value = isoToLocalInput(publishAt)
	}, [publishAt, typed])
	return (
		<fieldset className="editor-schedule">
			<legend>Schedule</legend>
			{scheduled && publishAt ? (
				<p>
					Scheduled for <LocalTime iso={publishAt} time />.
				</p>
			) : null}
			<Field
				name="publishAt"
				label="Publish at"
				hint="In your time zone (UTC if JavaScript is off)."
				type="datetime-local"
				ref={publishAtRef}
				defaultValue={typed}
				error={error}
			/>
			<input type="hidden" name="timezoneOffset" ref={offsetRef} defaultValue="0" />
			<button type="submit" name="intent" value="schedule" disabled={busy}>
				{scheduled ? 'Change the time' : 'Schedule'}
			</button>
		</fieldset>
	)
}

export function LeaveDialog({ onStay, onLeave }: { onStay: () => void; onLeave: () => void }) {
	return (
		<div role="alertdialog" aria-modal="false" aria-labelledby="leave-title" className="leave">
			<p id="leave-title">
				<strong>You have unsaved changes.</strong> Leave this page and lose them?
			</p>
			<button type="button" onClick={onStay}>
				Stay and keep editing
			</button>{' '}
			<button type="button" className="secondary" onClick={onLeave}>
				Leave without saving
			</button>
		</div>
	)
}
