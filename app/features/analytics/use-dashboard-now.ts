import { useEffect, useState } from 'react'

export interface NowFigure {
	visitors: number
	/** ISO time: the start of the window counted. */
	since: string
}

export const nowPollMs = 15_000

function isNowFigure(value: unknown): value is NowFigure {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof Reflect.get(value, 'visitors') === 'number' &&
		typeof Reflect.get(value, 'since') === 'string'
	)
}

/**
 * Visitors right now: the server's figure, then `url` asked again every `intervalMs` while the
 * tab is visible (a hidden tab asks nothing, and asks at once when it is shown again).
 */
export function useNowFigure(initial: NowFigure, url: string, intervalMs = nowPollMs): NowFigure {
	const [figure, setFigure] = useState(initial)
	useEffect(() => setFigure(initial), [initial])
	useEffect(() => {
		let timer: ReturnType<typeof setInterval> | undefined
		let request: AbortController | undefined
		const poll = async () => {
			request?.abort()
			const controller = new AbortController()
			request = controller
			try {
				// A signed-out editor is redirected to sign in: that answer is not a figure.
				const response = await fetch(url, {
					headers: { Accept: 'application/json' },
					redirect: 'error',
					signal: controller.signal,
				})
				if (!response.ok) return
				const body: unknown = await response.json()
				if (isNowFigure(body) && !controller.signal.aborted) setFigure(body)
			} catch {
				// Aborted, offline or signed out: the figure stays until a later poll succeeds.
			}
		}
		const start = () => {
			timer ??= setInterval(poll, intervalMs)
		}
		const stop = () => {
			clearInterval(timer)
			timer = undefined
			request?.abort()
		}
		const onVisibility = () => {
			if (document.visibilityState === 'visible') {
				void poll()
				start()
			} else stop()
		}
		if (document.visibilityState === 'visible') start()
		document.addEventListener('visibilitychange', onVisibility)
		return () => {
			document.removeEventListener('visibilitychange', onVisibility)
			stop()
		}
	}, [url, intervalMs])
	return figure
}
