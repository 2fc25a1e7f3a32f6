// A parameter's value for the page: during server rendering and hydration the value the root
// loader evaluated for this visitor; after a later activation (at a route change), the client's.
import { useEffect, useSyncExternalStore } from 'react'
import { useLocation, useRouteLoaderData } from 'react-router'
import {
	activateConfig,
	activeValues,
	rootConfig,
	startRemoteConfig,
	subscribeActive,
} from './config-store.ts'
import type { ConfigValues, ParameterKey } from './parameters.ts'

export function useConfigValue<Key extends ParameterKey>(key: Key): ConfigValues[Key] {
	const server = rootConfig(useRouteLoaderData('root')).values
	return useSyncExternalStore(
		subscribeActive,
		() => (activeValues() ?? server)[key],
		() => server[key],
	)
}

/** The path last seen, kept by the module so a remount (StrictMode, an error page) is no change. */
let lastPathname: string | undefined

/** For the root: starts the client after hydration, and activates at every route change. */
export function useRemoteConfig(): void {
	const server = rootConfig(useRouteLoaderData('root'))
	const { pathname } = useLocation()
	// Every render may ask: only the first call, after hydration, starts anything.
	useEffect(() => {
		void startRemoteConfig(server)
	})
	useEffect(() => {
		if (lastPathname !== undefined && lastPathname !== pathname) activateConfig()
		lastPathname = pathname
	}, [pathname])
}
