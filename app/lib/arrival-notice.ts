// A notice a redirect asks for with a query parameter (`?created=1`, `?deleted=1`): told on
// arrival, not again on a reload or when the address is shared, because the parameter leaves the
// address at once (replaced, so Back does not return to it).
import { useEffect, useState } from 'react'
import { useLocation, useNavigate, useSearchParams } from 'react-router'

/** The parameter's value as the page arrived with it; null when it came without. */
export function useArrivalNotice(param: string): string | null {
	const [searchParams] = useSearchParams()
	const { pathname, hash } = useLocation()
	const navigate = useNavigate()
	const value = searchParams.get(param)
	const [told, setTold] = useState(value)
	// Another arrival with it while the page stays mounted tells it again.
	if (value !== null && value !== told) setTold(value)
	useEffect(() => {
		if (value === null) return
		const rest = new URLSearchParams(searchParams)
		rest.delete(param)
		const search = rest.toString()
		navigate(
			{ pathname, search: search ? `?${search}` : '', hash },
			{ replace: true, preventScrollReset: true },
		)
	}, [value, param, searchParams, pathname, hash, navigate])
	return told
}
