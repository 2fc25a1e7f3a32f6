import { lazy, Suspense, useRef, useState } from 'react'
import { maxQueryLength } from '#app/features/search/search-limits.ts'

// The suggestions' script loads when a reader first focuses a search field, so pages that are
// only read never fetch it; until then (and without JavaScript) the field is a plain input.
const SearchSuggestions = lazy(() => import('./search-suggestions.tsx'))

/**
 * A search field of a GET form, offering titles as the reader types (search-suggestions.tsx).
 * The list floats below the field, so nothing on the page moves when it opens.
 */
export function SearchField({
	id,
	className,
	placeholder,
	defaultValue,
	describedBy,
	routeFocus = false,
}: {
	id: string
	className?: string
	placeholder?: string
	defaultValue?: string
	describedBy?: string
	/** Where focus goes when a link leads to the page (use-route-focus.ts). */
	routeFocus?: boolean
}) {
	const input = useRef<HTMLInputElement>(null)
	const [wanted, setWanted] = useState(false)
	return (
		<div className={className ? `search-field ${className}` : 'search-field'}>
			<input
				ref={input}
				id={id}
				type="search"
				name="q"
				placeholder={placeholder}
				defaultValue={defaultValue}
				maxLength={maxQueryLength}
				autoComplete="off"
				enterKeyHint="search"
				aria-describedby={describedBy}
				data-route-focus={routeFocus || undefined}
				onFocus={() => setWanted(true)}
			/>
			{wanted ? (
				<Suspense fallback={null}>
					<SearchSuggestions input={input} listId={`${id}-suggestions`} />
				</Suspense>
			) : null}
		</div>
	)
}
