// The change feed: every public change, in commit order, for live pages and caches.
export type ChangeKind = 'added' | 'modified' | 'removed'

export interface Change {
	id: number
	topic: string
	entityId: string
	kind: ChangeKind
	createdAt: string
}

export interface ChangeRepository {
	latestId(): Promise<number>
	/** Ids at or below this were pruned; a reader that far behind must start over. */
	horizon(): Promise<number>
	after(id: number, limit: number): Promise<Change[]>
	/** Keeps the newest `keep` changes and moves the horizon past the rest. */
	prune(keep: number): Promise<number>
	/**
	 * Calls `wake` soon after any change commits, in this process or another one on the same
	 * database. The caller reads the table to learn what changed. Returns a stop function.
	 */
	watch(wake: () => void): () => void
}
