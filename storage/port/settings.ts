// Site settings: string values by key.
export interface SettingsRepository {
	all(): Promise<Record<string, string>>
	set(values: Record<string, string>): Promise<void>
	/**
	 * Stores the value unless the key has one, and returns what is stored: instances starting
	 * together agree on one value (a generated secret). Not announced on the feed: not public.
	 */
	setIfAbsent(key: string, value: string): Promise<string>
	/** Deletes the keys that start with `prefix`, except those in `keep`; returns how many. */
	deleteByPrefix(prefix: string, keep: string[]): Promise<number>
}
