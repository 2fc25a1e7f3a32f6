// What every reader sees (published articles and pages, their lists and neighbours, tags,
// authors, the site's settings), read once and kept until the next change on the feed. Pages
// rendered for signed-in staff and for readers the page cache cannot serve then cost no queries
// (docs/decisions/038-public-read-cache.md). The requests' storage is this one; the jobs and the
// live broker keep reading the database itself.
import type { ChangeRepository } from './port/changes.ts'
import type { StorageHandle } from './storage-handle.ts'

export interface PublicReadCacheOptions {
	/** Reads kept at most (the oldest go first). */
	maxEntries?: number
	/**
	 * About how much memory the kept reads may take, counted as their text (an article is mostly
	 * its Markdown and HTML): the oldest go first. A read larger than an eighth of it is not kept.
	 */
	maxBytes?: number
	/**
	 * A kept read is read again after this long even without a change: a backstop for writes
	 * that bypass the change feed (an operator's SQL) or a lost notification.
	 */
	maxAgeMs?: number
}

export interface PublicReadCache {
	storage: StorageHandle
	/**
	 * Drops everything kept, as a change does. For a listener that hears of changes by another
	 * way and must not act before this cache has (server/compose.ts: the page cache).
	 */
	forget(): void
	/** Stops watching the feed; reads then go to the database every time. */
	stop(): void
}

/**
 * Freezes what is kept, so a caller that changed a shared result in place fails at once, in
 * tests, instead of showing one reader's change to the next.
 */
function deepFreeze<T>(value: T): T {
	if (value && typeof value === 'object' && !Object.isFrozen(value)) {
		Object.freeze(value)
		for (const inner of Object.values(value)) deepFreeze(inner)
	}
	return value
}

/**
 * About the memory a read's result takes: its strings' characters (two bytes each, as V8 may
 * keep them) and a little for every other value. Counted once, when it is kept.
 */
export function approximateBytes(value: unknown, depth = 0): number {
	if (typeof value === 'string') return 2 * value.length
	if (!value || typeof value !== 'object' || depth > 8) return 8
	let bytes = 16
	for (const inner of Object.values(value)) bytes += 8 + approximateBytes(inner, depth + 1)
	return bytes
}

interface Kept {
	value: Promise<unknown>
	/** Counted once the read has answered; 0 until then. */
	bytes: number
}

/**
 * The storage with its public reads kept between changes. Every change of any topic, committed by
 * this process or another (`changes.watch`), drops everything kept.
 *
 * Live lists pair a change id with a list read after it (articles.server.ts, listArticles). So
 * that a kept list is never older than the position it is paired with, the position is kept
 * too, read once per generation before any other read of that generation: every kept read then
 * holds every change up to it, and a stream resuming there misses nothing.
 */
export function withPublicReadCache(
	base: StorageHandle,
	options: PublicReadCacheOptions = {},
): PublicReadCache {
	const maxEntries = options.maxEntries ?? 1000
	const maxAgeMs = options.maxAgeMs ?? 60_000
	const maxBytes = options.maxBytes ?? 64 * 1024 * 1024
	const entries = new Map<string, Kept>()
	let keptBytes = 0
	let generation = 0
	let generationStarted = performance.now()
	let position: Promise<number> | undefined
	let stopped = false

	/** Drops everything kept: a change was committed, or the kept reads grew old. */
	function forget() {
		generation++
		generationStarted = performance.now()
		entries.clear()
		keptBytes = 0
		position = undefined
	}
	const stopWatching = base.changes.watch(forget)

	/**
	 * The feed's position for this generation, read before anything else is kept in it. Kept reads
	 * grow old together (maxAgeMs), never one by one: a position read again while older reads
	 * were kept could be paired with a list that lacks a change it counts.
	 */
	function latestId(): Promise<number> {
		if (stopped) return base.changes.latestId()
		if (performance.now() - generationStarted > maxAgeMs) forget()
		if (position) return position
		const read = base.changes.latestId()
		position = read
		read.catch(() => {
			if (position === read) position = undefined
		})
		return read
	}

	function drop(key: string, entry: Kept) {
		entries.delete(key)
		keptBytes -= entry.bytes
	}

	function cached<Args extends unknown[], Result>(
		name: string,
		read: (...args: Args) => Promise<Result>,
	): (...args: Args) => Promise<Result> {
		return async (...args) => {
			const key = `${name}\u0000${JSON.stringify(args)}`
			// The generation's position first, so this read holds every change up to it. A change
			// meanwhile starts a new generation, whose position comes first in turn.
			for (let tries = 0; !stopped && tries < 3; tries++) {
				const started = generation
				await latestId()
				if (started !== generation) continue
				const hit = entries.get(key)
				if (hit) return hit.value as Promise<Result>
				const value = read(...args).then(deepFreeze)
				const kept: Kept = { value, bytes: 0 }
				// A read that fails is not kept; one that spans a change is its own callers' only
				// (forget() has dropped it); a large one is not kept.
				value.then(
					(result) => {
						if (entries.get(key) !== kept) return
						kept.bytes = approximateBytes(result)
						if (kept.bytes > maxBytes / 8) return void entries.delete(key)
						keptBytes += kept.bytes
						for (const [oldest, entry] of entries) {
							if (keptBytes <= maxBytes || oldest === key) break
							drop(oldest, entry)
						}
					},
					() => {
						if (entries.get(key) === kept) entries.delete(key)
					},
				)
				if (entries.size >= maxEntries) {
					const [oldest, entry] = entries.entries().next().value as [string, Kept]
					drop(oldest, entry)
				}
				entries.set(key, kept)
				return value
			}
			return read(...args)
		}
	}

	const { articles, tags, authors, settings } = base
	const changes: ChangeRepository = {
		latestId,
		horizon: () => base.changes.horizon(),
		after: (id, limit) => base.changes.after(id, limit),
		prune: (keep) => base.changes.prune(keep),
		watch: (wake) => base.changes.watch(wake),
	}
	const storage: StorageHandle = {
		...base,
		changes,
		settings: {
			...settings,
			all: cached('settings.all', () => settings.all()),
		},
		articles: {
			...articles,
			findPublishedBySlug: cached('articles.findPublishedBySlug', (slug, kind) =>
				articles.findPublishedBySlug(slug, kind),
			),
			listPublished: cached('articles.listPublished', (list) => articles.listPublished(list)),
			neighbours: cached('articles.neighbours', (at, language) =>
				articles.neighbours(at, language),
			),
			translations: cached('articles.translations', (id) => articles.translations(id)),
			listPublishedAddresses: cached('articles.listPublishedAddresses', (limit) =>
				articles.listPublishedAddresses(limit),
			),
			listPublishedPages: cached('articles.listPublishedPages', () =>
				articles.listPublishedPages(),
			),
			languages: cached('articles.languages', (kind) => articles.languages(kind)),
		},
		tags: { ...tags, findBySlug: cached('tags.findBySlug', (slug) => tags.findBySlug(slug)) },
		authors: {
			...authors,
			findBySlug: cached('authors.findBySlug', (slug) => authors.findBySlug(slug)),
		},
	}
	return {
		storage,
		forget,
		stop() {
			stopped = true
			stopWatching()
			forget()
		},
	}
}
