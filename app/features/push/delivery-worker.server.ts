// Sending new articles' push notices: each step claims the due deliveries and sends them to the
// push services, at most `concurrency` at a time on one keep-alive agent. Several instances may
// run it on one database: each delivery is leased to one of them. Like mail, delivery is at
// least once: a worker stopped between the service's 201 and markSent leaves the delivery to be
// sent again when its lease runs out. The server runs the steps (server/jobs/push-delivery.ts).
import { Agent } from 'node:https'
import webPush from 'web-push'
import { getSiteSettings } from '#app/features/site/site-settings.server.ts'
import type { Logger } from '#app/lib/logger.ts'
import type { ClaimedPushDelivery } from '#storage/port/push.ts'
import type { Storage } from '#storage/port/storage.ts'
import {
	buildPayload,
	classify,
	defaultRetry,
	pushTopic,
	type RetryPolicy,
	remainingTtlSeconds,
} from './delivery.server.ts'
import { checkedLookup } from './push-endpoint.server.ts'
import { type VapidKeys, vapidSubject } from './vapid-keys.server.ts'

export interface PushDeliveryOutcome {
	claimed: number
	sent: number
	gone: number
	failed: number
	retried: number
}

export interface PushDeliveryOptions {
	intervalMs?: number
	/** Longer than a whole batch can take: batchSize / concurrency rounds of `timeoutMs`. */
	leaseMs?: number
	batchSize?: number
	concurrency?: number
	/** How long a connection may sit idle waiting for the push service before it is given up. */
	timeoutMs?: number
	/** The https.Agent requests go out on (default: a keep-alive agent of this worker's own). */
	agent?: Agent
	retry?: Partial<RetryPolicy>
	clock?: () => Date
	random?: () => number
	/** How long stop() waits for sends under way (default 10 s). */
	stopGraceMs?: number
}

const hostOf = (delivery: ClaimedPushDelivery) => new URL(delivery.subscription.endpoint).host

const nothing = (): PushDeliveryOutcome => ({ claimed: 0, sent: 0, gone: 0, failed: 0, retried: 0 })

/**
 * One step of the push delivery worker: claim the due deliveries and send them, at most
 * `concurrency` at a time on one keep-alive agent. The server runs the steps
 * (server/jobs/push-delivery.ts).
 */
export function pushDeliverySteps(
	storage: Storage,
	logger: Logger,
	config: { siteUrl: string; vapidSubject: string },
	vapidKeys: VapidKeys,
	options: PushDeliveryOptions = {},
) {
	const batchSize = options.batchSize ?? 100
	const concurrency = options.concurrency ?? 20
	const timeoutMs = options.timeoutMs ?? 30_000
	const leaseMs = options.leaseMs ?? 10 * 60_000
	const clock = options.clock ?? (() => new Date())
	const retry = { ...defaultRetry, ...options.retry }
	const ownAgent = options.agent
		? undefined
		: // Connects only to addresses that are still public when the notice is sent (checkedLookup).
			new Agent({ keepAlive: true, maxSockets: concurrency, lookup: checkedLookup() })
	const agent = (options.agent ?? ownAgent) as Agent

	async function deliver(
		delivery: ClaimedPushDelivery,
		payload: string,
		vapidDetails: { subject: string; publicKey: string; privateKey: string },
		outcome: PushDeliveryOutcome,
	) {
		const { id, attempts } = delivery
		const fields = { id, articleId: delivery.article.id, attempts }
		const ttl = remainingTtlSeconds(delivery.createdAt, clock(), retry.maxAgeMs)
		if (ttl === 0) {
			// Claimed again after its day (a worker that died, a long stop): no longer news.
			const reason = `given up after ${attempts - 1} attempt(s): its day ran out before it was sent`
			await storage.push.markFailed(id, null, reason, clock())
			logger.warn('push: given up; the notice will not be sent', { ...fields, error: reason })
			outcome.failed++
			return
		}
		let answer: { status: number } | { error: unknown }
		try {
			const result = await webPush.sendNotification(
				{ endpoint: delivery.subscription.endpoint, keys: delivery.subscription },
				payload,
				{
					vapidDetails,
					TTL: ttl,
					urgency: 'normal',
					topic: pushTopic,
					agent,
					timeout: timeoutMs,
				},
			)
			answer = { status: result.statusCode }
		} catch (error) {
			answer = { error }
		}
		const now = clock()
		const verdict = classify(answer, { attempts, now, policy: retry, random: options.random })
		switch (verdict.kind) {
			case 'sent':
				await storage.push.markSent(id, verdict.status, now)
				outcome.sent++
				return
			case 'gone':
				await storage.push.markGone(id, verdict.status, now)
				logger.info('push: the subscription is gone; deleted', {
					...fields,
					status: verdict.status,
				})
				outcome.gone++
				return
			case 'failed':
				await storage.push.markFailed(id, verdict.status, verdict.reason, now)
				// The host names the push service; the endpoint's path is a secret (it can push).
				if (verdict.cause === 'credentials')
					logger.error(
						'push: the push service refused our VAPID signature; check VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT',
						{ ...fields, status: verdict.status, host: hostOf(delivery), error: verdict.reason },
					)
				else
					logger.warn('push: refused by the push service; not retried', {
						...fields,
						status: verdict.status,
						host: hostOf(delivery),
						error: verdict.reason,
					})
				outcome.failed++
				return
			case 'retry': {
				const next = new Date(now.getTime() + verdict.delayMs)
				const deadline = new Date(delivery.createdAt).getTime() + retry.maxAgeMs
				if (attempts >= retry.maxAttempts || next.getTime() > deadline) {
					const reason = `given up after ${attempts} attempt(s): ${verdict.reason}`
					await storage.push.markFailed(id, verdict.status, reason, now)
					logger.warn('push: given up; the notice will not be sent', {
						...fields,
						error: verdict.reason,
					})
					outcome.failed++
					return
				}
				await storage.push.retryLater(id, verdict.status, verdict.reason, next)
				logger.info('push: could not send; will retry', {
					...fields,
					error: verdict.reason,
					retryInMs: verdict.delayMs,
				})
				outcome.retried++
			}
		}
	}

	async function step(): Promise<PushDeliveryOutcome> {
		const due = await storage.push.claimDue(clock(), leaseMs, batchSize)
		const outcome = { ...nothing(), claimed: due.length }
		if (due.length === 0) return outcome
		// Read each step: the logo and contact address may change while Canopy runs.
		const site = await getSiteSettings(storage)
		const vapidDetails = { subject: await vapidSubject(storage, config), ...vapidKeys }
		const payloads = new Map<number, string>()
		const payloadOf = (article: ClaimedPushDelivery['article']) => {
			let payload = payloads.get(article.id)
			if (payload === undefined) {
				payload = buildPayload(article, { siteUrl: config.siteUrl, logoUrl: site.logoUrl })
				payloads.set(article.id, payload)
			}
			return payload
		}
		let next = 0
		const lane = async () => {
			while (next < due.length) {
				const delivery = due[next++] as ClaimedPushDelivery
				await deliver(delivery, payloadOf(delivery.article), vapidDetails, outcome).catch(
					(error: unknown) =>
						// The answer could not be recorded: the lease runs out and it is sent again.
						logger.warn('push: could not record a delivery; it will be retried', {
							id: delivery.id,
							error,
						}),
				)
			}
		}
		await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, lane))
		return outcome
	}

	return {
		step,
		nothing,
		batchSize,
		/** Closes the agent this worker made for itself. */
		release: () => ownAgent?.destroy(),
	}
}
