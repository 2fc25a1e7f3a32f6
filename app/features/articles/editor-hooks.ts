// The article editor's browser side: debouncing, the live preview, the slug check.
import { useEffect, useRef, useState } from 'react'

const previewDelayMs = 300

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

/**
 * The body rendered by the server's own pipeline (the public page's), as the author types.
 * Plain fetch, not a fetcher: a fetcher's action makes the router revalidate every loader on the
 * page, and one finishing during a save's redirect to a route the page has not discovered yet
 * throws.
 */
export function useLivePreview(body: string, initialHtml: string): string {
	const debouncedBody = useDebounced(body, previewDelayMs)
	const [previewHtml, setPreviewHtml] = useState(initialHtml)
	const firstBody = useRef(debouncedBody)
	useEffect(() => {
		if (debouncedBody === firstBody.current) return
		firstBody.current = debouncedBody
		const controller = new AbortController()
		fetchJson<{ html: string }>('/admin/articles/preview', controller.signal, {
			method: 'POST',
			body: new URLSearchParams({ body: debouncedBody }),
		}).then((answer) => {
			if (answer) setPreviewHtml(answer.html)
		})
		return () => controller.abort()
	}, [debouncedBody])
	return previewHtml
}

/** What is wrong with the slug being typed (taken, reserved), checked as it is typed; null: fine. */
export function useSlugCheck(
	slug: string,
	article: { id: number; slug: string } | null,
): string | null {
	const debouncedSlug = useDebounced(slug.trim(), previewDelayMs)
	const [problem, setProblem] = useState<string | null>(null)
	const storedSlug = article?.slug ?? ''
	const articleId = article?.id
	useEffect(() => {
		setProblem(null)
		if (!debouncedSlug || debouncedSlug === storedSlug) return
		const query = new URLSearchParams({ slug: debouncedSlug })
		if (articleId) query.set('id', String(articleId))
		const controller = new AbortController()
		fetchJson<{ problem: string | null }>(
			`/admin/articles/slug-check?${query}`,
			controller.signal,
		).then((answer) => setProblem(answer?.problem ?? null))
		return () => controller.abort()
	}, [debouncedSlug, storedSlug, articleId])
	return problem
}
