// Sending webhook deliveries: each step claims the due deliveries and sends them, at most
// `concurrency` at a time, each answer recorded as soon as it comes. Several instances may run it
// on one database: each delivery is leased to one of them. Delivery is at least once: a worker
// stopped between the receiver's 2xx and markDelivered leaves the delivery to be sent again when
// its lease runs out, with the same webhook-id, by which the receiver drops the repeat. The
// server runs the steps (server/jobs/webhook-delivery.ts).
import { Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import type { Logger } from '#app/lib/logger.ts'
import type { Storage } from '#storage/port/storage.ts'
import type { ClaimedWebhookDelivery } from '#storage/port/webhooks.ts'
import {
	classifyAnswer,
	deliveryMaxAgeMs,
	postWebhook,
	retrySchedule,
	signatureHeaders,
	webhookBody,
} from './delivery.server.ts'
import { checkWebhookUrl, webhookLookup } from './webhook-address.server.ts'
import { allowsPrivateAddresses } from './webhook-settings.server.ts'

export interface WebhookDeliveryOutcome {
	claimed: number
	delivered: number
	retried: number
	failed: number
}

export interface WebhookDeliveryOptions {
	intervalMs?: number
	/** Longer than a whole batch can take: batchSize / concurrency rounds of `timeoutMs`. */
	leaseMs?: number
	batchSize?: number
	concurrency?: number
	/** The longest one attempt may take, connection to answer. */
	timeoutMs?: number
	schedule?: number[]
	maxAgeMs?: number
	clock?: () => Date
	random?: () => number
	/** How long stop() waits for sends under way (default 10 s). */
	stopGraceMs?: number
}

const nothing = (): WebhookDeliveryOutcome => ({ claimed: 0, delivered: 0, retried: 0, failed: 0 })

/** One keep-alive agent per scheme and per setting, each connecting only where it allows. */
function agents(concurrency: number) {
	const made = (allowPrivate: boolean) => {
		const options = {
			keepAlive: true,
			maxSockets: concurrency,
			lookup: webhookLookup({ allowPrivate }),
		}
		return { http: new HttpAgent(options), https: new HttpsAgent(options) }
	}
	const all = { public: made(false), private: made(true) }
	return {
		pick: (url: URL, allowPrivate: boolean) =>
			all[allowPrivate ? 'private' : 'public'][url.protocol === 'https:' ? 'https' : 'http'],
		destroy() {
			for (const set of Object.values(all)) {
				set.http.destroy()
				set.https.destroy()
			}
		},
	}
}

export function webhookDeliverySteps(
	storage: Storage,
	logger: Logger,
	config: { siteUrl: string },
	options: WebhookDeliveryOptions = {},
) {
	const batchSize = options.batchSize ?? 50
	const concurrency = options.concurrency ?? 10
	const timeoutMs = options.timeoutMs ?? 15_000
	const leaseMs = options.leaseMs ?? 5 * 60_000
	const clock = options.clock ?? (() => new Date())
	const schedule = options.schedule ?? retrySchedule
	const maxAgeMs = options.maxAgeMs ?? deliveryMaxAgeMs
	const pool = agents(concurrency)
	const userAgent = `Canopy-Webhooks/1 (+${config.siteUrl})`

	async function deliver(
		delivery: ClaimedWebhookDelivery,
		allowPrivate: boolean,
		outcome: WebhookDeliveryOutcome,
	) {
		const { id, attempts } = delivery
		const fields = { id, endpointId: delivery.endpointId, event: delivery.eventType, attempts }
		// Its day counts from the event, or from when an admin sent it again.
		const since = delivery.resentAt ?? delivery.createdAt
		if (clock().getTime() > new Date(since).getTime() + maxAgeMs) {
			// Taken again after its day (a worker that died, a long stop): no longer sent.
			const expired = {
				status: null,
				error: 'Given up: its day ran out before it could be sent.',
				durationMs: 0,
			}
			await storage.webhooks.markFailed(id, expired, clock())
			outcome.failed++
			return
		}
		// Checked again at each send: the setting may have changed since the endpoint was saved.
		// (A host name is checked by the agent's lookup as it connects.)
		const checked = await checkWebhookUrl(
			delivery.endpoint.url,
			{ allowPrivate },
			{ resolve: false },
		)
		const body = webhookBody(delivery, config.siteUrl)
		const answer = checked.ok
			? await postWebhook(
					checked.url,
					body,
					signatureHeaders(delivery.endpoint.secrets, delivery.messageId, body, clock()),
					{ agent: pool.pick(checked.url, allowPrivate), timeoutMs, userAgent, now: clock },
				)
			: { status: null, error: checked.error, durationMs: 0 }
		const verdict = classifyAnswer(answer, {
			attempts,
			createdAt: since,
			now: clock(),
			schedule,
			maxAgeMs,
			random: options.random,
		})
		switch (verdict.kind) {
			case 'delivered':
				await storage.webhooks.markDelivered(id, answer, clock())
				outcome.delivered++
				return
			case 'gone': {
				const reason = 'The receiver answered 410 Gone: it asked for no more events.'
				await storage.webhooks.markFailed(id, answer, clock())
				await storage.webhooks.disableEndpoint(delivery.endpointId, reason, clock())
				logger.warn('webhooks: the receiver answered 410 Gone; the endpoint is turned off', fields)
				outcome.failed++
				return
			}
			case 'failed':
				await storage.webhooks.markFailed(
					id,
					{ ...answer, error: [answer.error, verdict.reason].filter(Boolean).join(' ') },
					clock(),
				)
				logger.warn('webhooks: given up; the event will not be sent', {
					...fields,
					status: answer.status,
					error: answer.error,
				})
				outcome.failed++
				return
			case 'retry':
				await storage.webhooks.retryLater(id, answer, new Date(clock().getTime() + verdict.delayMs))
				logger.info('webhooks: could not deliver; will retry', {
					...fields,
					status: answer.status,
					error: answer.error,
					retryInMs: verdict.delayMs,
				})
				outcome.retried++
		}
	}

	async function step(): Promise<WebhookDeliveryOutcome> {
		const due = await storage.webhooks.claimDue(clock(), leaseMs, batchSize)
		const outcome = { ...nothing(), claimed: due.length }
		if (due.length === 0) return outcome
		// Read each step: an admin may change it while Canopy runs.
		const allowPrivate = await allowsPrivateAddresses(storage)
		let next = 0
		const lane = async () => {
			while (next < due.length) {
				const delivery = due[next++] as ClaimedWebhookDelivery
				await deliver(delivery, allowPrivate, outcome).catch((error: unknown) =>
					// The answer could not be recorded: the lease runs out and it is sent again.
					logger.warn('webhooks: could not record a delivery; it will be retried', {
						id: delivery.id,
						error,
					}),
				)
			}
		}
		await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, lane))
		return outcome
	}

	return { step, nothing, batchSize, release: () => pool.destroy() }
}
