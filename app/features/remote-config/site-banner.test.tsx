// @vitest-environment jsdom
// The announcement banner: shown as plain text with a Dismiss button, gone for good once
// dismissed (until the message changes), and hidden from the first paint for a reader who
// dismissed it, without a hydration error.
import { I18nProvider } from '@lingui/react'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { createMemoryRouter, RouterProvider, useRouteLoaderData } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { i18nFor } from '#app/lib/i18n.ts'
import { rootConfig } from './config-store.ts'
import { inAppDefaults } from './in-app-defaults.ts'
import { BannerDismissedScript, messageHash, SiteBanner } from './site-banner.tsx'

/** As root.tsx renders it on the server and hydrates it. */
function RenderedPage() {
	const message = rootConfig(useRouteLoaderData('root')).values.banner_message
	return (
		<>
			<BannerDismissedScript message={message} />
			<Page />
		</>
	)
}

/** Rendered in the browser alone: React warns of <script> elements it creates there. */
function Page() {
	return (
		<>
			<SiteBanner />
			<main id="main" tabIndex={-1}>
				Content
			</main>
		</>
	)
}

function app(message: string, Component = Page) {
	const router = createMemoryRouter([{ id: 'root', path: '/', Component }], {
		hydrationData: {
			loaderData: {
				root: { config: { version: 1, values: { ...inAppDefaults, banner_message: message } } },
			},
		},
	})
	return (
		<I18nProvider i18n={i18nFor('en')}>
			<RouterProvider router={router} />
		</I18nProvider>
	)
}

/** What the head script does before the first paint. */
function runHeadScript(container: ParentNode) {
	const script = container.querySelector('script')?.textContent ?? ''
	new Function(script)()
}

afterEach(() => {
	cleanup()
	localStorage.clear()
	document.documentElement.removeAttribute('data-banner-dismissed')
})

describe('the site banner', () => {
	it('shows the message as text, with a button to dismiss it', () => {
		render(app('Meet us <b>Saturday</b> at the river'))
		const banner = screen.getByRole('region', { name: 'Announcement' })
		expect(banner.textContent).toContain('Meet us <b>Saturday</b> at the river')
		expect(banner.querySelector('b')).toBeNull()
		expect(screen.getByRole('button', { name: 'Dismiss announcement' }).textContent).toBe('Dismiss')
	})

	it('is not there when the message is empty', () => {
		render(app(''))
		expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull()
		const container = document.createElement('div')
		container.innerHTML = renderToString(app('', RenderedPage))
		expect(container.querySelector('script')?.textContent).toBe('')
	})

	it('stays dismissed for that message only', () => {
		const first = render(app('Cleanup on Saturday'))
		fireEvent.click(screen.getByRole('button', { name: 'Dismiss announcement' }))
		expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull()
		expect(document.activeElement?.id).toBe('main')
		first.unmount()

		const again = render(app('Cleanup on Saturday'))
		expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull()
		again.unmount()

		render(app('Cleanup moved to Sunday'))
		expect(screen.getByRole('region', { name: 'Announcement' })).toBeTruthy()
	})

	it('names a message by a hash, different for different messages', () => {
		expect(messageHash('Cleanup on Saturday')).toBe(messageHash('Cleanup on Saturday'))
		expect(messageHash('Cleanup on Saturday')).not.toBe(messageHash('Cleanup on Sunday'))
		expect(messageHash('Cleanup on Saturday')).toMatch(/^[0-9a-z]+$/)
	})

	it('the head script marks the page only for the dismissed message', () => {
		const container = document.createElement('div')
		container.innerHTML = renderToString(app('Cleanup on Saturday', RenderedPage))
		runHeadScript(container)
		expect(document.documentElement.hasAttribute('data-banner-dismissed')).toBe(false)

		localStorage.setItem('canopy.banner.dismissed', messageHash('Cleanup moved'))
		runHeadScript(container)
		expect(document.documentElement.hasAttribute('data-banner-dismissed')).toBe(false)

		localStorage.setItem('canopy.banner.dismissed', messageHash('Cleanup on Saturday'))
		runHeadScript(container)
		expect(document.documentElement.getAttribute('data-banner-dismissed')).toBe(
			messageHash('Cleanup on Saturday'),
		)
	})

	it('hydrates the server-rendered banner of a reader who dismissed it, then removes it', async () => {
		localStorage.setItem('canopy.banner.dismissed', messageHash('Cleanup on Saturday'))
		const container = document.createElement('div')
		document.body.append(container)
		// The server cannot know: it renders the banner, and the head script marks the page.
		container.innerHTML = renderToString(app('Cleanup on Saturday', RenderedPage))
		expect(container.querySelector('.site-banner')).not.toBeNull()
		runHeadScript(container)
		expect(document.documentElement.hasAttribute('data-banner-dismissed')).toBe(true)

		const root = await act(async () =>
			hydrateRoot(container, app('Cleanup on Saturday', RenderedPage)),
		)
		// console.error (a hydration mismatch) would fail this test (tests/setup.ts).
		expect(container.querySelector('.site-banner')).toBeNull()
		expect(document.documentElement.hasAttribute('data-banner-dismissed')).toBe(false)
		act(() => root.unmount())
		container.remove()
	})
})
