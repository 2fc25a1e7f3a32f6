// @vitest-environment jsdom
// A page's config values: what the root loader evaluated, until a value fetched later (here a
// live update, from a real HTTP server playing GET /api/config) is activated at a route change.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { act, render, screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configVersionHeard, startRemoteConfig } from './config-store.ts'
import { inAppDefaults } from './in-app-defaults.ts'
import type { EvaluatedConfig } from './parameters.ts'
import { useConfigValue, useRemoteConfig } from './use-config.ts'

let server: Server
let origin = ''
let requests = 0
let served: EvaluatedConfig = { version: 1, values: { ...inAppDefaults, banner_message: 'One' } }
const realFetch = globalThis.fetch

beforeAll(async () => {
	server = createServer((_request, response) => {
		requests++
		response
			.writeHead(200, {
				'Content-Type': 'application/json',
				ETag: `"v${served.version}"`,
				Connection: 'close',
			})
			.end(JSON.stringify(served))
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	// The client asks for /api/config as a page would; here the page's origin is the test server.
	globalThis.fetch = (input, init) => realFetch(new URL(String(input), origin), init)
})
afterAll(() => {
	globalThis.fetch = realFetch
	return new Promise((resolve) => server.close(resolve))
})

function Banner() {
	return <p data-testid="banner">{useConfigValue('banner_message')}</p>
}

function Root() {
	useRemoteConfig()
	return <Outlet />
}

function renderApp(config: EvaluatedConfig | undefined) {
	const router = createMemoryRouter(
		[
			{
				id: 'root',
				path: '/',
				Component: Root,
				children: [
					{ index: true, Component: Banner },
					{ path: 'other', Component: Banner },
				],
			},
		],
		{ hydrationData: { loaderData: { root: config ? { config } : {} } } },
	)
	render(<RouterProvider router={router} />)
	return router
}

describe('useConfigValue', () => {
	it('shows the in-app default when the root loader has no config', () => {
		const { unmount } = render(
			<RouterProvider
				router={createMemoryRouter([{ id: 'root', path: '/', Component: Banner }], {
					hydrationData: { loaderData: { root: {} } },
				})}
			/>,
		)
		expect(screen.getByTestId('banner').textContent).toBe(inAppDefaults.banner_message)
		unmount()
	})

	it('shows the rendered value until a newer version is activated at a route change', async () => {
		const rendered = { version: 1, values: { ...inAppDefaults, banner_message: 'One' } }
		const router = renderApp(rendered)
		expect(screen.getByTestId('banner').textContent).toBe('One')

		// After hydration the client starts, seeded with the rendered values: nothing is fetched.
		const client = await startRemoteConfig(rendered)
		expect(client?.activeVersion()).toBe(1)
		expect(document.cookie).toMatch(/canopy_config_id=[\w-]{22}/)
		expect(requests).toBe(0)

		// A live update names an older or the same version: still nothing fetched.
		configVersionHeard(1)
		await client?.fetch()
		expect(requests).toBe(0)

		served = { version: 2, values: { ...inAppDefaults, banner_message: 'Two' } }
		configVersionHeard(2)
		await waitFor(() => expect(client?.knownVersion()).toBe(2))
		expect(requests).toBe(1)
		// Fetched, not yet active: the page does not change under the reader.
		expect(screen.getByTestId('banner').textContent).toBe('One')

		await act(() => router.navigate('/other'))
		await waitFor(() => expect(screen.getByTestId('banner').textContent).toBe('Two'))
		expect(client?.activeVersion()).toBe(2)
		expect(JSON.parse(localStorage.getItem('canopy.config.active') ?? '{}').version).toBe(2)
	})
})
