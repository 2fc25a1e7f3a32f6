// Addresses that moved (docs/decisions/025-redirects.md): from an old path to a new one.

export interface Redirect {
	/** A path of this site: /articles/old-slug, /2019/05/old-post. */
	from: string
	/** A path of this site, or an https address elsewhere. */
	to: string
	status: 301 | 302
	/** Recorded by a rename (true), or added by an admin. */
	automatic: boolean
	createdAt: string
}

export type RedirectPutResult = { ok: true } | { ok: false; reason: 'loop' }

export interface RedirectRepository {
	/** Where a path goes, if it moved. */
	find(path: string): Promise<Redirect | undefined>
	/** Every redirect, by its from path. */
	list(): Promise<Redirect[]>
	/**
	 * Adds one, or replaces the one from the same path. Redirects that led to its `from` now go
	 * straight to its `to` (no chains); one that would lead back to where it starts is refused.
	 */
	put(redirect: Omit<Redirect, 'createdAt' | 'automatic'>): Promise<RedirectPutResult>
	/**
	 * Adds or replaces many in one transaction (an import): all of them, or none when any would
	 * make a loop (those are named). `automatic`: recorded by Canopy on the site they came from
	 * (a CSV export's kind "rename"); an admin's otherwise.
	 */
	putMany(
		redirects: (Omit<Redirect, 'createdAt' | 'automatic'> & { automatic?: boolean })[],
	): Promise<{ ok: true; count: number } | { ok: false; loops: string[] }>
	/** False when there was none from this path. */
	delete(from: string): Promise<boolean>
}
