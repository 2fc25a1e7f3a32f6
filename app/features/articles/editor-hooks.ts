// The article editor's browser side: debouncing, the live preview, the slug check, what a
// refused save said that still stands.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { FieldErrors } from '#app/lib/field-errors.ts'

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

/** What has happened since a refused save's answer: the fields changed, and whether a save took. */
interface SinceAnswer {
	answer: unknown
	changed: readonly string[]
	saved: boolean
}

/**
 * The errors of the last refused save that still stand. A field's message goes once the field is
 * changed (a tag's `tags.2` with the tags); the summary goes once a save takes after it (an
 * autosave too), when what it listed is no longer why the article is not saved. A new answer
 * brings all it says back.
 */
export function useStandingErrors(answer: { errors?: FieldErrors } | undefined) {
	const fresh = (): SinceAnswer => ({ answer, changed: [], saved: false })
	const [kept, setKept] = useState(fresh)
	const since = kept.answer === answer ? kept : fresh()
	const { changed, saved } = since
	const fields = useMemo(() => {
		const standing: FieldErrors = {}
		for (const [key, messages] of Object.entries(answer?.errors ?? {}))
			if (!changed.includes(key.split('.')[0] ?? key)) standing[key] = messages
		return standing
	}, [answer, changed])
	const ofThisAnswer = useCallback(
		(update: (since: SinceAnswer) => SinceAnswer) =>
			setKept((before) =>
				update(before.answer === answer ? before : { answer, changed: [], saved: false }),
			),
		[answer],
	)
	/** A field was changed: `cover` for its file picker's `coverFile` too. */
	const fieldChanged = useCallback(
		(name: string) => {
			const field = name.replace(/File$/, '')
			if (answer?.errors)
				ofThisAnswer((before) =>
					before.changed.includes(field)
						? before
						: { ...before, changed: [...before.changed, field] },
				)
		},
		[answer, ofThisAnswer],
	)
	const saveTook = useCallback(
		() => ofThisAnswer((before) => (before.saved ? before : { ...before, saved: true })),
		[ofThisAnswer],
	)
	return { fields, summary: saved ? {} : fields, fieldChanged, saveTook }
}
