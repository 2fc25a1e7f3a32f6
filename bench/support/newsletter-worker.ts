// One Canopy instance's newsletter delivery worker, alone in its process, for the newsletter
// benchmark's kill -9: on the database DATABASE_URL names (a schema of it: SCHEMA), sending over
// SMTP_URL with the renderers of the built site, until it is killed. Prints "ready".

import { loadBuild } from '#server/build.ts'
import { startNewsletterDelivery } from '#server/jobs/newsletter-delivery.ts'
import { createLogger } from '#server/logger.ts'
import { storageRules } from '#server/storage-rules.ts'
import { openPostgresStorage } from '#storage/postgres/open-postgres.ts'

const env = process.env
const storage = openPostgresStorage(env.DATABASE_URL ?? '', {
	schema: env.SCHEMA,
	poolSize: 4,
	rules: storageRules,
})
const build = await loadBuild()
const mails = () =>
	(
		build.entry.module as unknown as { loadNewsletterMails: () => Promise<never> }
	).loadNewsletterMails()
startNewsletterDelivery(
	storage,
	createLogger('error'),
	{
		siteUrl: 'https://news.example.org',
		smtpUrl: env.SMTP_URL ?? '',
		newsletter: { ratePerSecond: 1_000, suspendAfter: 3 },
	},
	mails,
	{ leaseMs: Number(env.LEASE_MS ?? 5_000), intervalMs: 100 },
)
console.log('ready')
