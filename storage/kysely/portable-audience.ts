// The portable sections about readers: push subscriptions and results, configuration versions,
// messages, analytics.
import {
	everything,
	integer,
	integerOrNull,
	json,
	type Tables,
	text,
	textOrNull,
} from './portable-rows.ts'
import { toIso, toIsoOrNull } from './rows.ts'

export const audienceTables: Pick<
	Tables,
	| 'pushSubscriptions'
	| 'pushResults'
	| 'configVersions'
	| 'contactMessages'
	| 'analyticsDaily'
	| 'analyticsViews'
> = {
	pushSubscriptions: {
		table: 'push_subscriptions',
		select: everything('push_subscriptions'),
		order: [{ column: 'id' }],
		fetch: 500,
		identity: true,
		read: (r) => ({
			id: integer(r.id),
			endpoint: text(r.endpoint),
			p256dh: text(r.p256dh),
			auth: text(r.auth),
			expirationTime: toIsoOrNull(r.expiration_time),
			createdAt: toIso(r.created_at),
			refreshedAt: toIso(r.refreshed_at),
		}),
		write: (r) => ({
			id: r.id,
			endpoint: r.endpoint,
			p256dh: r.p256dh,
			auth: r.auth,
			expiration_time: r.expirationTime,
			created_at: r.createdAt,
			refreshed_at: r.refreshedAt,
		}),
	},
	pushResults: {
		table: 'push_delivery_totals',
		// Retired totals plus the finished delivery rows, per article: what editors see as an
		// article's results. Pending deliveries are not moved (the decision says why).
		select: `SELECT article_id, SUM(sent) AS sent, SUM(gone) AS gone, SUM(failed) AS failed,
			SUM(cancelled) AS cancelled
			FROM (
				SELECT article_id, sent, gone, failed, cancelled FROM push_delivery_totals
				UNION ALL
				SELECT article_id,
					CASE WHEN state = 'sent' THEN 1 ELSE 0 END,
					CASE WHEN state = 'gone' THEN 1 ELSE 0 END,
					CASE WHEN state = 'failed' THEN 1 ELSE 0 END,
					CASE WHEN state = 'cancelled' THEN 1 ELSE 0 END
				FROM push_deliveries WHERE state <> 'pending'
			) results
			GROUP BY article_id`,
		order: [{ column: 'article_id' }],
		fetch: 500,
		read: (r) => ({
			articleId: integer(r.article_id),
			sent: integer(r.sent),
			gone: integer(r.gone),
			failed: integer(r.failed),
			cancelled: integer(r.cancelled),
		}),
		write: (r) => ({
			article_id: r.articleId,
			sent: r.sent,
			gone: r.gone,
			failed: r.failed,
			cancelled: r.cancelled,
		}),
	},
	configVersions: {
		table: 'config_versions',
		select: everything('config_versions'),
		order: [{ column: 'id' }],
		fetch: 100,
		read: (r) => ({
			id: integer(r.id),
			document: json(r.document),
			createdAt: toIso(r.created_at),
			createdBy: textOrNull(r.created_by),
			createdByName: text(r.created_by_name),
			summary: text(r.summary),
			restoredFrom: integerOrNull(r.restored_from),
		}),
		write: (r) => ({
			id: r.id,
			document: JSON.stringify(r.document),
			created_at: r.createdAt,
			created_by: r.createdBy,
			created_by_name: r.createdByName,
			summary: r.summary,
			restored_from: r.restoredFrom,
		}),
	},
	contactMessages: {
		table: 'contact_messages',
		select: everything('contact_messages'),
		order: [{ column: 'id' }],
		fetch: 500,
		identity: true,
		read: (r) => ({
			id: integer(r.id),
			idempotencyKey: text(r.idempotency_key),
			name: text(r.name),
			email: text(r.email),
			subject: text(r.subject),
			message: text(r.message),
			createdAt: toIso(r.created_at),
			readAt: toIsoOrNull(r.read_at),
			archivedAt: toIsoOrNull(r.archived_at),
		}),
		write: (r) => ({
			id: r.id,
			idempotency_key: r.idempotencyKey,
			name: r.name,
			email: r.email,
			subject: r.subject,
			message: r.message,
			created_at: r.createdAt,
			read_at: r.readAt,
			archived_at: r.archivedAt,
		}),
	},
	analyticsDaily: {
		table: 'analytics_daily',
		select: everything('analytics_daily'),
		order: ['day', 'dimension', 'value', 'value2', 'value3'].map((column) => ({
			column,
			text: true,
		})),
		fetch: 1000,
		read: (r) => ({
			day: text(r.day),
			dimension: text(r.dimension),
			value: text(r.value),
			value2: text(r.value2),
			value3: text(r.value3),
			visitors: integer(r.visitors),
			views: integer(r.views),
			visits: integer(r.visits),
		}),
		write: (r) => ({ ...r }),
	},
	analyticsViews: {
		table: 'analytics_events',
		select: everything('analytics_events'),
		order: [{ column: 'id' }],
		fetch: 1000,
		identity: true,
		read: (r) => ({
			id: integer(r.id),
			atMs: integer(r.at_ms),
			day: text(r.day),
			visitor: text(r.visitor),
			screen: text(r.screen),
			path: text(r.path),
			title: text(r.title),
			previousPath: text(r.previous_path),
			referrerHost: text(r.referrer_host),
			utmSource: text(r.utm_source),
			utmMedium: text(r.utm_medium),
			utmCampaign: text(r.utm_campaign),
			device: text(r.device),
			language: text(r.language),
		}),
		write: (r) => ({
			id: r.id,
			at_ms: r.atMs,
			day: r.day,
			visitor: r.visitor,
			screen: r.screen,
			path: r.path,
			title: r.title,
			previous_path: r.previousPath,
			referrer_host: r.referrerHost,
			utm_source: r.utmSource,
			utm_medium: r.utmMedium,
			utm_campaign: r.utmCampaign,
			device: r.device,
			language: r.language,
		}),
	},
}
