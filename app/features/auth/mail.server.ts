// Account mail (invites, password reset links), when SMTP_URL is set. It goes through the mail
// outbox: queueing is a quick local write, and a failed send is retried with backoff instead of
// lost (server/jobs/mail-outbox.ts sends it).
import type { Storage } from '#storage/port/storage.ts'

export interface AccountMail {
	kind: 'invite' | 'password-reset'
	to: string
	subject: string
	text: string
}

export interface AccountMailServices {
	storage: Storage
	wakeMailOutbox: () => void
}

export function mailEnabled(smtpUrl: string): boolean {
	return smtpUrl !== ''
}

/** Queues the mail and wakes the outbox, so it normally leaves within a moment. */
export async function queueAccountMail(
	services: AccountMailServices,
	mail: AccountMail,
): Promise<void> {
	await services.storage.outbox.enqueue([
		{
			kind: mail.kind,
			recipient: mail.to,
			subject: mail.subject,
			textBody: mail.text,
			replyTo: null,
		},
	])
	services.wakeMailOutbox()
}
