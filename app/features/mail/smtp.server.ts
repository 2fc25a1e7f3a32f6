// Sending one mail over SMTP_URL. A `from` parameter on the URL names the sender
// (smtp://user:pass@host:587?from=team@example.org); without it mail comes from no-reply at the
// site's host.
import type { Transporter } from 'nodemailer'
import type { OutgoingMail } from '#storage/port/mail.ts'

export interface MailSender {
	/** Resolves once the mail server has accepted the mail; rejects when it refused or failed. */
	send(mail: OutgoingMail): Promise<void>
	close(): void
}

export interface SmtpOptions {
	/** The longest one send may take, however slowly the server answers. */
	timeoutMs?: number
}

/** The sender named by `?from=` on the URL, or no-reply at the site's host. */
export function senderAddress(smtpUrl: string, siteUrl: string): string {
	return (
		new URL(smtpUrl).searchParams.get('from') || `Canopy <no-reply@${new URL(siteUrl).hostname}>`
	)
}

/** A connection to SMTP_URL's server, opened at its first use (and nodemailer loaded then). */
export interface SmtpTransport {
	open(): Promise<Transporter>
	close(): void
}

/**
 * The transport for SMTP_URL (its `from` left out). Each stage has a timeout, so a server that
 * stops answering ends the attempt; `pool` keeps connections open and spaces the messages.
 */
export function smtpTransport(
	smtpUrl: string,
	pool?: { maxConnections: number; perSecond: number },
): SmtpTransport {
	const url = new URL(smtpUrl)
	url.searchParams.delete('from')
	const options = {
		url: url.toString(),
		connectionTimeout: 10_000,
		greetingTimeout: 10_000,
		socketTimeout: 20_000,
		disableFileAccess: true,
		disableUrlAccess: true,
	}
	let opening: Promise<Transporter> | undefined
	return {
		open() {
			opening ??= import('nodemailer').then(({ createTransport }) =>
				pool
					? createTransport({
							...options,
							pool: true,
							maxConnections: pool.maxConnections,
							// nodemailer's pool spaces the messages: `rateLimit` per `rateDelta` ms.
							rateDelta: 1000,
							rateLimit: pool.perSecond,
						})
					: createTransport(options),
			)
			return opening
		},
		// A transport that could not be made has nothing to close; its send said why.
		close: () =>
			void opening?.then(
				(opened) => opened.close(),
				() => undefined,
			),
	}
}

export function smtpSender(
	smtpUrl: string,
	siteUrl: string,
	options: SmtpOptions = {},
): MailSender {
	const timeoutMs = options.timeoutMs ?? 30_000
	const from = senderAddress(smtpUrl, siteUrl)
	// Per-stage timeouts end a server that stops answering; the overall deadline below also ends
	// one that answers a byte at a time, so a send never outlives the lease on its mail.
	const transport = smtpTransport(smtpUrl)
	return {
		async send(mail) {
			const opened = await transport.open()
			let timer: NodeJS.Timeout | undefined
			const deadline = new Promise<never>((_, reject) => {
				timer = setTimeout(
					() => reject(new Error(`the mail server took longer than ${timeoutMs / 1000} s`)),
					timeoutMs,
				)
			})
			try {
				await Promise.race([
					opened.sendMail({
						from,
						to: mail.recipient,
						subject: mail.subject,
						text: mail.textBody,
						html: mail.htmlBody ?? undefined,
						replyTo: mail.replyTo ?? undefined,
					}),
					deadline,
				])
			} finally {
				clearTimeout(timer)
			}
		},
		close: transport.close,
	}
}
