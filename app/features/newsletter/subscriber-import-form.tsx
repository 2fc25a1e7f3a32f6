import { Trans } from '@lingui/react/macro'
import { useEffect, useRef } from 'react'
import { Form } from 'react-router'
import type { FieldErrors } from '#app/lib/field-errors.ts'

/** The form importing a CSV list of addresses, with the consent the admin vouches for. */
export function SubscriberImportForm({
	errors,
	values,
	imported,
	busy,
}: {
	errors: FieldErrors
	/** The boxes as they were sent, for a page answered without JavaScript. */
	values: Record<string, string>
	/** The answer to an import that went in. */
	imported: object | null
	busy: boolean
}) {
	const form = useRef<HTMLFormElement>(null)
	// A list that went in is cleared, so a second press cannot import it again.
	useEffect(() => {
		if (imported) form.current?.reset()
	}, [imported])
	return (
		<Form ref={form} method="post" encType="multipart/form-data" className="form subscriber-import">
			<h2>
				<Trans>Import a list</Trans>
			</h2>
			<p className="hint" id="subscribers-file-hint">
				<Trans>
					A CSV file with an <code>email</code> column (other columns are ignored), or one address
					per line. Addresses already here are left as they are; a file with a bad line imports
					nothing.
				</Trans>
			</p>
			<label htmlFor="subscribers-file">
				<Trans>CSV file (up to 5 MB, 100,000 addresses)</Trans>
			</label>
			<input
				id="subscribers-file"
				type="file"
				name="file"
				accept=".csv,.txt,text/csv,text/plain"
				required
				aria-invalid={errors.file ? true : undefined}
				aria-describedby={`subscribers-file-hint${errors.file ? ' subscribers-file-error' : ''}`}
			/>
			{errors.file ? (
				<ul id="subscribers-file-error" className="field-error" role="alert">
					{errors.file.map((line) => (
						<li key={line}>{line}</li>
					))}
				</ul>
			) : null}
			<div className="checkbox-row">
				<input
					type="checkbox"
					id="consent"
					name="consent"
					required
					defaultChecked={values.consent === 'on'}
					aria-invalid={errors.consent ? true : undefined}
					aria-describedby={errors.consent ? 'consent-error' : undefined}
				/>
				<label htmlFor="consent">
					<Trans>
						These people agreed to receive this newsletter (you may be asked to show how)
					</Trans>
				</label>
			</div>
			{errors.consent ? (
				<p id="consent-error" className="field-error" role="alert">
					{errors.consent.join(' ')}
				</p>
			) : null}
			<div className="checkbox-row">
				<input
					type="checkbox"
					id="confirmed"
					name="confirmed"
					defaultChecked={values.confirmed === 'on'}
					aria-describedby="confirmed-hint"
				/>
				<label htmlFor="confirmed">
					<Trans>
						They already confirmed their address with us elsewhere: do not send them a confirmation
						mail
					</Trans>
				</label>
			</div>
			<p id="confirmed-hint" className="hint">
				<Trans>
					Unticked, the new addresses stay pending and each is sent a mail asking to confirm; only
					those who confirm receive the newsletter.
				</Trans>
			</p>
			<button type="submit" name="intent" value="import" disabled={busy}>
				<Trans>Import</Trans>
			</button>
		</Form>
	)
}
