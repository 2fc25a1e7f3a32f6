// Small browser helpers of the article editor.
import { useEffect, useState } from 'react'

/** The value, once it has stopped changing for `delayMs`. */
export function useDebounced<T>(value: T, delayMs: number): T {
	const [debounced, setDebounced] = useState(value)
	useEffect(() => {
		const timer = setTimeout(() => setDebounced(value), delayMs)
		return () => clearTimeout(timer)
	}, [value, delayMs])
	return debounced
}

/** JSON from one of the editor's helper endpoints; undefined when it fails or is cancelled. */
export async function fetchJson<T>(url: string, signal: AbortSignal, init: RequestInit = {}) {
	try {
		const response = await fetch(url, { ...init, signal })
		return response.ok ? ((await response.json()) as T) : undefined
	} catch {
		return undefined
	}
}
