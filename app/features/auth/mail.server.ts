// Account mail (invites, password reset links) over SMTP, when SMTP_URL is set. A `from`
// parameter on the URL names the sender (smtp://user:pass@host:587?from=team@example.org);
// without it mail comes from no-reply at the site's host.
import { createTransport, type Transporter } from 'nodemailer'
import type { Logger } from '#server/logger.ts'

export interface AccountMail {
	to: string
	subject: string
	text: string
}

const transports = new Map<string, { transport: Transporter; from: string }>()

function transportFor(smtpUrl: string, siteUrl: string) {
	let entry = transports.get(smtpUrl)
	if (!entry) {
		const url = new URL(smtpUrl)
		const from = url.searchParams.get('from') || `Canopy <no-reply@${new URL(siteUrl).hostname}>`
		url.searchParams.delete('from')
		entry = {
			// Short timeouts: a mail server that hangs must not hold sockets open for minutes.
			transport: createTransport({
				url: url.toString(),
				connectionTimeout: 10_000,
				greetingTimeout: 10_000,
				socketTimeout: 30_000,
			}),
			from,
		}
		transports.set(smtpUrl, entry)
	}
	return entry
}

export function mailEnabled(smtpUrl: string): boolean {
	return smtpUrl !== ''
}

/** Sends one message; rejects when the mail server refuses it or cannot be reached. */
export async function sendMail(smtpUrl: string, siteUrl: string, mail: AccountMail): Promise<void> {
	const { transport, from } = transportFor(smtpUrl, siteUrl)
	await transport.sendMail({ from, ...mail })
}

/**
 * Sends without making the caller wait. For answers that must not reveal anything by their
 * timing (a reset request for an address with an account must take as long as one without),
 * and so a slow mail server never holds a page. A failure is logged for the operator.
 */
export function sendMailLater(
	smtpUrl: string,
	siteUrl: string,
	logger: Logger,
	mail: AccountMail,
): void {
	sendMail(smtpUrl, siteUrl, mail).catch((error: unknown) => {
		logger.warn('mail: could not send', {
			subject: mail.subject,
			error: error instanceof Error ? error.message : String(error),
		})
	})
}
