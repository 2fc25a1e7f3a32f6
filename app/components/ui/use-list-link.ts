import { useSearchParams } from 'react-router'

/**
 * Links for a list page's filters and pages: the current query with `changes` applied (null
 * removes a key), dropping `oneOff` keys that only announce what just happened (?deleted=1).
 */
export function useListLink(oneOff: string[]) {
	const [params] = useSearchParams()
	return (changes: Record<string, string | null>) => {
		const next = new URLSearchParams(params)
		for (const key of oneOff) next.delete(key)
		for (const [key, value] of Object.entries(changes)) {
			if (value === null) next.delete(key)
			else next.set(key, value)
		}
		const search = next.toString()
		return search ? `?${search}` : '.'
	}
}
