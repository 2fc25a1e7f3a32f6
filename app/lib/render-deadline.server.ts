// The limit on a page's render, in the one shape React's renderToReadableStream reads from an
// AbortSignal (`aborted`, `reason`, an "abort" listener and its removal). Not a real AbortSignal:
// React listens with `{ signal }`, and Node's EventTarget keeps such a listener through a
// FinalizationRegistry, which young collections treat as alive; with a real signal, every
// rendered page stayed in memory until a full collection (decision 043).

type AbortListener = () => void

export interface RenderDeadline {
	/** What to hand React as its `signal`. */
	readonly signal: AbortSignal
	/** The render has finished: the deadline will not fire. */
	clear(): void
}

export function renderDeadline(ms: number): RenderDeadline {
	const listeners = new Set<AbortListener>()
	const deadline = {
		aborted: false,
		reason: undefined as unknown,
		addEventListener(type: string, listener: AbortListener, options?: { signal?: AbortSignal }) {
			if (type !== 'abort' || deadline.aborted) return
			listeners.add(listener)
			// React stops listening when its render is over; a plain listener, so nothing weak.
			const stop = () => listeners.delete(listener)
			options?.signal?.addEventListener('abort', stop, { once: true })
		},
		removeEventListener(type: string, listener: AbortListener) {
			if (type === 'abort') listeners.delete(listener)
		},
	}
	const expire = () => {
		deadline.aborted = true
		deadline.reason = new Error(`The page took more than ${ms} ms to render.`)
		for (const listener of [...listeners]) listener()
		listeners.clear()
	}
	const timer = setTimeout(expire, ms)
	return {
		signal: deadline as unknown as AbortSignal,
		clear() {
			clearTimeout(timer)
			listeners.clear()
		},
	}
}
