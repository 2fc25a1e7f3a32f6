import { createElement, Suspense, use } from 'react'
import { renderToReadableStream } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderDeadline } from './render-deadline.server.ts'

describe('renderDeadline', () => {
	beforeEach(() => vi.useFakeTimers())
	afterEach(() => vi.useRealTimers())

	it('tells its listeners once the time is up, with the reason', () => {
		const deadline = renderDeadline(6_000)
		const heard: unknown[] = []
		deadline.signal.addEventListener('abort', () => heard.push(deadline.signal.reason))
		vi.advanceTimersByTime(5_999)
		expect(deadline.signal.aborted).toBe(false)
		expect(heard).toEqual([])
		vi.advanceTimersByTime(1)
		expect(deadline.signal.aborted).toBe(true)
		expect(heard).toHaveLength(1)
		expect(String(heard[0])).toContain('more than 6000 ms')
	})

	it('never fires once cleared', () => {
		const deadline = renderDeadline(10)
		const listener = vi.fn()
		deadline.signal.addEventListener('abort', listener)
		deadline.clear()
		vi.advanceTimersByTime(100)
		expect(listener).not.toHaveBeenCalled()
		expect(deadline.signal.aborted).toBe(false)
	})

	it('forgets a listener whose own signal aborts, as an AbortSignal does', () => {
		const deadline = renderDeadline(10)
		const lifetime = new AbortController()
		const listener = vi.fn()
		deadline.signal.addEventListener('abort', listener, { signal: lifetime.signal })
		lifetime.abort()
		vi.advanceTimersByTime(100)
		expect(listener).not.toHaveBeenCalled()
	})

	it('forgets a removed listener', () => {
		const deadline = renderDeadline(10)
		const listener = vi.fn()
		deadline.signal.addEventListener('abort', listener)
		deadline.signal.removeEventListener('abort', listener)
		vi.advanceTimersByTime(100)
		expect(listener).not.toHaveBeenCalled()
	})
})

/** A part of a page whose data never comes. */
const never = new Promise<string>(() => {})
function Waiting() {
	return createElement('p', null, use(never))
}

describe('renderDeadline with React', () => {
	it('ends a render that waits for ever, sending what was ready', async () => {
		const page = createElement(
			'main',
			null,
			createElement('h1', null, 'Ready part'),
			createElement(
				Suspense,
				{ fallback: createElement('p', null, 'Loading') },
				createElement(Waiting),
			),
		)
		const deadline = renderDeadline(50)
		const errors: unknown[] = []
		const body = await renderToReadableStream(page, {
			signal: deadline.signal,
			onError: (error) => void errors.push(error),
		})
		const started = performance.now()
		const html = await new Response(body).text()
		expect(performance.now() - started).toBeLessThan(5_000)
		expect(html).toContain('Ready part')
		expect(html).toContain('Loading')
		expect(String(errors[0])).toContain('more than 50 ms')
	})
})
