// The portable sections of the site itself: settings, accounts, keys, images, articles.
import { type RevisionKind, revisionKinds } from '../port/revisions.ts'
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

function revisionKind(value: unknown): RevisionKind {
	return revisionKinds.find((kind) => kind === value) ?? 'saved'
}

export const siteTables: Pick<
	Tables,
	| 'settings'
	| 'users'
	| 'accounts'
	| 'apiKeys'
	| 'uploads'
	| 'articles'
	| 'tags'
	| 'authors'
	| 'redirects'
	| 'revisions'
> = {
	// A site's own tags, profiles and redirects meet the file's by address: the file's win.
	tags: {
		table: 'tags',
		select:
			'SELECT slug, name, description, cover_image_url, cover_image_alt, created_at, updated_at FROM tags',
		order: [{ column: 'slug', text: true }],
		fetch: 500,
		onConflict: `ON CONFLICT (slug) DO UPDATE SET name = excluded.name,
			description = excluded.description, cover_image_url = excluded.cover_image_url,
			cover_image_alt = excluded.cover_image_alt, updated_at = excluded.updated_at`,
		read: (r) => ({
			slug: text(r.slug),
			name: text(r.name),
			description: text(r.description),
			coverImageUrl: textOrNull(r.cover_image_url),
			coverImageAlt: textOrNull(r.cover_image_alt),
			createdAt: toIso(r.created_at),
			updatedAt: toIso(r.updated_at),
		}),
		write: (r) => ({
			slug: r.slug,
			name: r.name,
			description: r.description,
			cover_image_url: r.coverImageUrl,
			cover_image_alt: r.coverImageAlt,
			created_at: r.createdAt,
			updated_at: r.updatedAt,
		}),
	},
	authors: {
		table: 'authors',
		select:
			'SELECT slug, name, bio, avatar_url, website, user_id, created_at, updated_at FROM authors',
		order: [{ column: 'slug', text: true }],
		fetch: 500,
		onConflict: `ON CONFLICT (slug) DO UPDATE SET name = excluded.name, bio = excluded.bio,
			avatar_url = excluded.avatar_url, website = excluded.website, user_id = excluded.user_id,
			updated_at = excluded.updated_at`,
		read: (r) => ({
			slug: text(r.slug),
			name: text(r.name),
			bio: text(r.bio),
			avatarUrl: textOrNull(r.avatar_url),
			website: textOrNull(r.website),
			userId: textOrNull(r.user_id),
			createdAt: toIso(r.created_at),
			updatedAt: toIso(r.updated_at),
		}),
		write: (r) => ({
			slug: r.slug,
			name: r.name,
			bio: r.bio,
			avatar_url: r.avatarUrl,
			website: r.website,
			user_id: r.userId,
			created_at: r.createdAt,
			updated_at: r.updatedAt,
		}),
	},
	redirects: {
		table: 'redirects',
		select: 'SELECT from_path, to_path, status, automatic, created_at FROM redirects',
		order: [{ column: 'from_path', text: true }],
		fetch: 1000,
		onConflict: `ON CONFLICT (from_path) DO UPDATE SET to_path = excluded.to_path,
			status = excluded.status, automatic = excluded.automatic`,
		read: (r) => ({
			from: text(r.from_path),
			to: text(r.to_path),
			status: Number(r.status) === 302 ? 302 : 301,
			automatic: Boolean(r.automatic),
			createdAt: toIso(r.created_at),
		}),
		write: (r) => ({
			from_path: r.from,
			to_path: r.to,
			status: r.status,
			automatic: r.automatic,
			created_at: r.createdAt,
		}),
	},
	revisions: {
		table: 'article_revisions',
		select: everything('article_revisions'),
		order: [{ column: 'id' }],
		fetch: 100,
		identity: true,
		read: (r) => ({
			id: integer(r.id),
			articleId: integer(r.article_id),
			kind: revisionKind(r.kind),
			version: integer(r.version),
			userId: textOrNull(r.user_id),
			byName: text(r.by_name),
			status: r.status === 'published' ? 'published' : 'draft',
			slug: text(r.slug),
			title: text(r.title),
			summary: text(r.summary),
			bodyMarkdown: text(r.body_markdown),
			coverImageUrl: textOrNull(r.cover_image_url),
			coverImageAlt: textOrNull(r.cover_image_alt),
			tags: (json(r.tags) as unknown[]).map(String),
			authors: (json(r.authors) as unknown[]).map(String),
			seoTitle: text(r.seo_title),
			seoDescription: text(r.seo_description),
			socialImageUrl: textOrNull(r.social_image_url),
			changed: text(r.changed).split(',').filter(Boolean),
			restoredFrom: integerOrNull(r.restored_from),
			createdAt: toIso(r.created_at),
			savedAt: toIso(r.saved_at),
		}),
		write: (r) => ({
			id: r.id,
			article_id: r.articleId,
			kind: r.kind,
			version: r.version,
			user_id: r.userId,
			by_name: r.byName,
			status: r.status,
			slug: r.slug,
			title: r.title,
			summary: r.summary,
			body_markdown: r.bodyMarkdown,
			cover_image_url: r.coverImageUrl,
			cover_image_alt: r.coverImageAlt,
			tags: JSON.stringify(r.tags),
			authors: JSON.stringify(r.authors),
			seo_title: r.seoTitle,
			seo_description: r.seoDescription,
			social_image_url: r.socialImageUrl,
			changed: r.changed.join(','),
			restored_from: r.restoredFrom,
			created_at: r.createdAt,
			saved_at: r.savedAt,
		}),
	},
	settings: {
		table: 'settings',
		select: everything('settings'),
		order: [{ column: 'key', text: true }],
		fetch: 500,
		onConflict:
			'ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
		read: (r) => ({ key: text(r.key), value: text(r.value), updatedAt: toIso(r.updated_at) }),
		write: (r) => ({ key: r.key, value: r.value, updated_at: r.updatedAt }),
	},
	users: {
		table: 'user',
		select: everything('user'),
		order: [{ column: 'id', text: true }],
		fetch: 500,
		read: (r) => ({
			id: text(r.id),
			name: text(r.name),
			email: text(r.email),
			emailVerified: Boolean(r.emailVerified),
			image: textOrNull(r.image),
			createdAt: toIso(r.createdAt),
			updatedAt: toIso(r.updatedAt),
			role: text(r.role),
			deactivatedAt: toIsoOrNull(r.deactivatedAt),
			interfaceLanguage: text(r.interfaceLanguage),
		}),
		write: (r) => ({ ...r }),
	},
	accounts: {
		table: 'account',
		select: everything('account'),
		order: [{ column: 'id', text: true }],
		fetch: 500,
		read: (r) => ({
			id: text(r.id),
			accountId: text(r.accountId),
			providerId: text(r.providerId),
			userId: text(r.userId),
			accessToken: textOrNull(r.accessToken),
			refreshToken: textOrNull(r.refreshToken),
			idToken: textOrNull(r.idToken),
			accessTokenExpiresAt: toIsoOrNull(r.accessTokenExpiresAt),
			refreshTokenExpiresAt: toIsoOrNull(r.refreshTokenExpiresAt),
			scope: textOrNull(r.scope),
			password: textOrNull(r.password),
			createdAt: toIso(r.createdAt),
			updatedAt: toIso(r.updatedAt),
		}),
		write: (r) => ({ ...r }),
	},
	apiKeys: {
		table: 'api_keys',
		select: everything('api_keys'),
		order: [{ column: 'id' }],
		fetch: 500,
		identity: true,
		read: (r) => ({
			id: integer(r.id),
			name: text(r.name),
			keyHash: text(r.key_hash),
			prefix: text(r.prefix),
			createdBy: text(r.created_by),
			createdAt: toIso(r.created_at),
			lastUsedAt: toIsoOrNull(r.last_used_at),
			revokedAt: toIsoOrNull(r.revoked_at),
		}),
		write: (r) => ({
			id: r.id,
			name: r.name,
			key_hash: r.keyHash,
			prefix: r.prefix,
			created_by: r.createdBy,
			created_at: r.createdAt,
			last_used_at: r.lastUsedAt,
			revoked_at: r.revokedAt,
		}),
	},
	uploads: {
		table: 'uploads',
		select: everything('uploads'),
		order: [{ column: 'id' }],
		fetch: 4,
		identity: true,
		read: (r) => ({
			id: integer(r.id),
			hash: text(r.hash),
			mime: text(r.mime),
			size: integer(r.size),
			width: integerOrNull(r.width),
			height: integerOrNull(r.height),
			createdBy: textOrNull(r.created_by),
			createdAt: toIso(r.created_at),
			bytes: r.bytes as Uint8Array,
		}),
		write: (r) => ({
			id: r.id,
			hash: r.hash,
			mime: r.mime,
			size: r.size,
			width: r.width,
			height: r.height,
			// A Buffer: what pg sends as bytea, and a Uint8Array for node:sqlite.
			bytes: Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength),
			created_by: r.createdBy,
			created_at: r.createdAt,
		}),
	},
	articles: {
		table: 'articles',
		// Its tags' and authors' names, in order, as JSON arrays beside the row.
		select: (dialect) => {
			const names = (link: string, table: string, column: string) =>
				dialect === 'postgres'
					? `(SELECT coalesce(json_agg(t.name ORDER BY l.position), '[]'::json) FROM ${link} l
						JOIN ${table} t ON t.id = l.${column} WHERE l.article_id = articles.id)`
					: `(SELECT json_group_array(name) FROM (SELECT t.name FROM ${link} l
						JOIN ${table} t ON t.id = l.${column} WHERE l.article_id = articles.id
						ORDER BY l.position))`
			return `SELECT *, ${names('article_tags', 'tags', 'tag_id')} AS tag_names,
				${names('article_authors', 'authors', 'author_id')} AS author_names FROM articles`
		},
		order: [{ column: 'id' }],
		fetch: 100,
		identity: true,
		read: (r) => ({
			id: integer(r.id),
			slug: text(r.slug),
			title: text(r.title),
			summary: text(r.summary),
			bodyMarkdown: text(r.body_markdown),
			coverImageUrl: textOrNull(r.cover_image_url),
			coverImageAlt: textOrNull(r.cover_image_alt),
			tags: (json(r.tag_names) as unknown[]).map(String),
			authors: (json(r.author_names) as unknown[]).map(String),
			status: r.status === 'published' ? 'published' : 'draft',
			readingMinutes: integer(r.reading_minutes),
			publishedAt: toIsoOrNull(r.published_at),
			createdAt: toIso(r.created_at),
			updatedAt: toIso(r.updated_at),
			version: integer(r.version),
			kind: r.kind === 'page' ? 'page' : 'article',
			publishAt: toIsoOrNull(r.publish_at),
			notify: Boolean(r.notify),
			notifiedAt: toIsoOrNull(r.notified_at),
			email: Boolean(r.email ?? true),
			emailedAt: toIsoOrNull(r.emailed_at),
			seoTitle: text(r.seo_title ?? ''),
			seoDescription: text(r.seo_description ?? ''),
			socialImageUrl: textOrNull(r.social_image_url),
			language: text(r.language ?? ''),
			translationOf: integerOrNull(r.translation_of),
		}),
		// translation_of is written by the writer's finish(), once every article is in: an
		// original may come after its translation (portable-repository.ts).
		write: (r) => ({
			id: r.id,
			slug: r.slug,
			title: r.title,
			summary: r.summary,
			body_markdown: r.bodyMarkdown,
			body_html: r.bodyHtml,
			cover_image_url: r.coverImageUrl,
			cover_image_alt: r.coverImageAlt,
			status: r.status,
			reading_minutes: r.readingMinutes,
			published_at: r.publishedAt,
			created_at: r.createdAt,
			updated_at: r.updatedAt,
			version: r.version,
			kind: r.kind,
			publish_at: r.publishAt,
			notify: r.notify,
			notified_at: r.notifiedAt,
			email: r.email ?? true,
			// An article published before the newsletter existed counts as mailed.
			emailed_at:
				r.emailedAt !== undefined
					? r.emailedAt
					: r.status === 'published'
						? (r.publishedAt ?? r.updatedAt)
						: null,
			seo_title: r.seoTitle ?? '',
			seo_description: r.seoDescription ?? '',
			social_image_url: r.socialImageUrl ?? null,
			language: r.language ?? '',
		}),
	},
}
