// Said wherever staff would expect mail to go out (the newsletter, its subscribers and their
// import) while the site has no mail server: confirmations and issues wait in the outbox.
import { Trans } from '@lingui/react/macro'

export function MailNotSetUp() {
	return (
		<p className="notice">
			<Trans>
				Mail is not set up: nothing is sent until SMTP_URL is set. Mail queued meanwhile waits.
			</Trans>
		</p>
	)
}
