// The editor's switch for push subscribers: whether this article, once public, is announced to
// them. A plain checkbox posted with the form; an article announced already says when instead.
import { Trans } from '@lingui/react/macro'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { emailSwitchMarker, notifySwitchMarker } from './editor-form.ts'

export function NotifyField({
	notify,
	notifiedAt,
	published,
	typed,
}: {
	/** The stored choice; true for a new article. */
	notify: boolean
	notifiedAt: string | null
	published: boolean
	/** What was posted before a refused save (the page re-rendered without JavaScript). */
	typed: Record<string, string> | undefined
}) {
	if (notifiedAt) {
		return (
			<fieldset className="editor-notify">
				<legend>
					<Trans>Push notification</Trans>
				</legend>
				<p>
					<Trans>
						Subscribers were told of this article on <LocalTime iso={notifiedAt} time />. It will
						not be announced again, whatever happens to it.
					</Trans>
				</p>
			</fieldset>
		)
	}
	const checked = typed?.[notifySwitchMarker] ? typed.notify === 'on' : notify
	return (
		<fieldset className="editor-notify">
			<legend>
				<Trans>Push notification</Trans>
			</legend>
			<input type="hidden" name={notifySwitchMarker} value="1" />
			<div className="checkbox-row">
				<input
					type="checkbox"
					id="notify"
					name="notify"
					value="on"
					defaultChecked={checked}
					aria-describedby="notify-hint"
				/>
				<label htmlFor="notify">
					<Trans>Notify subscribers when this is published</Trans>
				</label>
			</div>
			<p id="notify-hint" className="hint">
				{published ? (
					<Trans>
						It was published without notifying. Subscribers are told only if it is unpublished and
						then published again with this switch on.
					</Trans>
				) : (
					<Trans>
						Readers who asked for notices get one when it becomes public, once in its life. Untick
						to publish quietly, e.g. a correction.
					</Trans>
				)}
			</p>
		</fieldset>
	)
}

/**
 * The editor's switch for the newsletter: whether this article, once public for the first time,
 * is mailed to subscribers (those taking every article; digest readers get it in their digest).
 */
export function EmailField({
	email,
	emailedAt,
	published,
	typed,
}: {
	email: boolean
	emailedAt: string | null
	published: boolean
	typed: Record<string, string> | undefined
}) {
	if (emailedAt) {
		return (
			<fieldset className="editor-notify">
				<legend>
					<Trans>Newsletter</Trans>
				</legend>
				<p>
					<Trans>
						Mailed to subscribers on <LocalTime iso={emailedAt} time />. It will not be mailed
						again, whatever happens to it.
					</Trans>
				</p>
			</fieldset>
		)
	}
	const checked = typed?.[emailSwitchMarker] ? typed.email === 'on' : email
	return (
		<fieldset className="editor-notify">
			<legend>
				<Trans>Newsletter</Trans>
			</legend>
			<input type="hidden" name={emailSwitchMarker} value="1" />
			<div className="checkbox-row">
				<input
					type="checkbox"
					id="email"
					name="email"
					value="on"
					defaultChecked={checked}
					aria-describedby="email-hint"
				/>
				<label htmlFor="email">
					<Trans>Email subscribers when this is published</Trans>
				</label>
			</div>
			<p id="email-hint" className="hint">
				{published ? (
					<Trans>
						It was published without mailing subscribers. They get it only if it is unpublished and
						then published again with this switch on.
					</Trans>
				) : (
					<Trans>
						Readers who take every article get it by mail when it first becomes public (once in its
						life); weekly-digest readers find it in their next digest. Untick for a correction or a
						small update.
					</Trans>
				)}
			</p>
		</fieldset>
	)
}
