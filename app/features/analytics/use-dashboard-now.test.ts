// @vitest-environment jsdom
// Visitors right now, asked of a real HTTP server: only while the tab is visible, at once when it
// is shown again, never after the page is gone, and never replaced by an answer that is no figure.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { act, renderHook, waitFor } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useNowFigure } from './use-dashboard-now.ts'

const pollMs = 40
let server: Server
let url = ''
let requests = 0
let answer: { status: number; body: string; location?: string } = { status: 200, body: '' }

const figure = (visitors: number) => ({
	status: 200,
	body: JSON.stringify({ visitors, since: '2026-11-21T12:00:00.000Z' }),
})

function setVisibility(state: 'visible' | 'hidden') {
	Object.defineProperty(document, 'visibilityState', { value: state, configurable: true })
	document.dispatchEvent(new Event('visibilitychange'))
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

beforeAll(async () => {
	server = createServer((_request, response) => {
		requests++
		response.writeHead(answer.status, {
			'Content-Type': answer.location ? 'text/html' : 'application/json',
			...(answer.location ? { Location: answer.location } : {}),
		})
		response.end(answer.body)
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/admin/analytics/now`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))
afterEach(() => setVisibility('visible'))

const initial = { visitors: 1, since: '2026-11-21T11:55:00.000Z' }

describe('visitors right now', () => {
	it('shows the server-rendered figure, then each new one the server gives', async () => {
		answer = figure(1)
		const { result, unmount } = renderHook(() => useNowFigure(initial, url, pollMs))
		try {
			expect(result.current.visitors).toBe(1)
			answer = figure(4)
			await waitFor(() => expect(result.current.visitors).toBe(4))
			answer = figure(2)
			await waitFor(() => expect(result.current.visitors).toBe(2))
		} finally {
			unmount()
		}
	})

	it('asks nothing while the tab is hidden, and asks at once when it is shown', async () => {
		// Slower polls here, so "at once" is told apart from the next poll.
		const slowPollMs = 400
		answer = figure(3)
		const { result, unmount } = renderHook(() => useNowFigure(initial, url, slowPollMs))
		try {
			await waitFor(() => expect(result.current.visitors).toBe(3), { timeout: slowPollMs * 2 })
			act(() => setVisibility('hidden'))
			await pause(50)
			const whileHidden = requests
			answer = figure(7)
			await pause(slowPollMs * 2.5)
			expect(requests).toBe(whileHidden)
			expect(result.current.visitors).toBe(3)
			act(() => setVisibility('visible'))
			await waitFor(() => expect(result.current.visitors).toBe(7), { timeout: slowPollMs / 2 })
		} finally {
			unmount()
		}
	})

	it('stops asking once the page is gone', async () => {
		answer = figure(5)
		const { result, unmount } = renderHook(() => useNowFigure(initial, url, pollMs))
		await waitFor(() => expect(result.current.visitors).toBe(5))
		unmount()
		await pause(pollMs)
		const after = requests
		await pause(pollMs * 5)
		expect(requests).toBe(after)
	})

	it('keeps the figure when the answer is a redirect to sign in, an error or not a figure', async () => {
		answer = figure(6)
		const { result, unmount } = renderHook(() => useNowFigure(initial, url, pollMs))
		try {
			await waitFor(() => expect(result.current.visitors).toBe(6))
			for (const wrong of [
				{ status: 302, body: '', location: '/admin/sign-in?next=%2Fadmin%2Fanalytics%2Fnow' },
				{ status: 500, body: '{"visitors": 0}' },
				{ status: 200, body: '{"visitors": "many"}' },
				{ status: 200, body: '<!DOCTYPE html><p>Sign in</p>' },
			]) {
				answer = wrong
				const before = requests
				await waitFor(() => expect(requests).toBeGreaterThan(before + 1))
				expect(result.current.visitors, JSON.stringify(wrong)).toBe(6)
			}
		} finally {
			unmount()
		}
	})
})
