// A notice a redirect asks for with a query parameter (`?created=1`, `?deleted=…`): told on
// arrival, not again on a reload or when the address is shared, because the parameter leaves the
// address at once (replaced, so Back does not return to it). Told only there: moving on within
// the page (a filter, the next page) leaves it behind.
import { useEffect, useState } from 'react'
import {
	type ShouldRevalidateFunctionArgs,
	useLocation,
	useNavigate,
	useSearchParams,
} from 'react-router'

/** Marks the history entry that replaced the arrival's, by the arrival's key. */
interface ReplacedArrival {
	arrivalNotice?: string
}

/** The parameter's value as the page arrived with it; null when it came without. */
export function useArrivalNotice(param: string): string | null {
	const [searchParams] = useSearchParams()
	const { pathname, hash, key, state } = useLocation()
	const navigate = useNavigate()
	const value = searchParams.get(param)
	// What is told, and the history entries it belongs to: the arrival's and the one that
	// replaced it without the parameter. A reload starts from none, so it tells nothing.
	const [told, setTold] = useState(() => (value === null ? null : { value, keys: [key] }))
	const replaced = (state as ReplacedArrival | null)?.arrivalNotice
	if (value !== null && !told?.keys.includes(key)) setTold({ value, keys: [key] })
	else if (
		told &&
		replaced !== undefined &&
		told.keys.includes(replaced) &&
		!told.keys.includes(key)
	)
		setTold({ value: told.value, keys: [...told.keys, key] })
	useEffect(() => {
		if (value === null) return
		const rest = new URLSearchParams(searchParams)
		rest.delete(param)
		const search = rest.toString()
		navigate(
			{ pathname, search: search ? `?${search}` : '', hash },
			{ replace: true, preventScrollReset: true, state: { arrivalNotice: key } },
		)
	}, [value, param, searchParams, pathname, hash, key, navigate])
	return told?.keys.includes(key) ? told.value : null
}

/** The parameters pages are told by on arrival. */
const arrivalParams = ['created', 'deleted', 'merged', 'reset', 'signed-out']

/**
 * shouldRevalidate for the routes of a page told by useArrivalNotice (and the routes around it):
 * the parameter leaving the address reads nothing again, since the page's data came with the
 * arrival a moment before.
 */
export function keepDataWhenNoticeLeaves({
	currentUrl,
	nextUrl,
	formMethod,
	defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs): boolean {
	if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate
	const rest = new URLSearchParams(currentUrl.search)
	for (const param of arrivalParams) rest.delete(param)
	const left = rest.toString() !== currentUrl.searchParams.toString()
	return left && rest.toString() === nextUrl.searchParams.toString()
		? false
		: defaultShouldRevalidate
}
