// The titles offered under a search field as the reader types: the ARIA 1.2 combobox pattern on
// the field (list autocomplete, the field keeps focus, aria-activedescendant marks the option).
// Asked for after a pause in typing; a newer query cancels the one before it, so an answer never
// arrives out of order. Enter with no option chosen submits the form as usual: /search.
import { plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { type RefObject, useEffect, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { suggestFrom } from '#app/features/search/search-limits.ts'

interface Suggestion {
	title: string
	href: string
	kind: 'article' | 'page'
}

/** The pause in typing that asks for suggestions. */
const pauseMs = 180

export default function SearchSuggestions({
	input,
	listId,
}: {
	input: RefObject<HTMLInputElement | null>
	listId: string
}) {
	const { t } = useLingui()
	const navigate = useNavigate()
	const location = useLocation()
	const [items, setItems] = useState<Suggestion[]>([])
	const [open, setOpen] = useState(false)
	const [active, setActive] = useState(-1)
	// Read by the field's listeners, which are attached once.
	const state = useRef({ items, open, active })
	state.current = { items, open, active }

	// The field becomes a combobox once this script can answer for it.
	useEffect(() => {
		const field = input.current
		if (!field) return
		field.setAttribute('role', 'combobox')
		field.setAttribute('aria-autocomplete', 'list')
		field.setAttribute('aria-controls', listId)
		field.setAttribute('aria-expanded', 'false')
		let timer: ReturnType<typeof setTimeout> | undefined
		let asking: AbortController | undefined

		const close = () => {
			setOpen(false)
			setActive(-1)
		}
		const ask = async (q: string) => {
			asking?.abort()
			const controller = new AbortController()
			asking = controller
			try {
				const response = await fetch(`/search/suggest?${new URLSearchParams({ q })}`, {
					signal: controller.signal,
					headers: { Accept: 'application/json' },
				})
				if (!response.ok) return close()
				const body = (await response.json()) as { suggestions?: Suggestion[] }
				if (controller.signal.aborted) return
				const found = body.suggestions ?? []
				setItems(found)
				setActive(-1)
				setOpen(found.length > 0 && document.activeElement === field)
			} catch {
				// Cancelled by a newer query, or offline: the plain search still works.
			}
		}
		const onInput = () => {
			clearTimeout(timer)
			const q = field.value.trim()
			if (q.length < suggestFrom) {
				asking?.abort()
				setItems([])
				return close()
			}
			timer = setTimeout(() => ask(q), pauseMs)
		}
		const onKeyDown = (event: KeyboardEvent) => {
			const { items, open, active } = state.current
			if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
				if (items.length === 0) return
				event.preventDefault()
				if (!open) {
					setOpen(true)
					setActive(event.key === 'ArrowDown' ? 0 : items.length - 1)
					return
				}
				const step = event.key === 'ArrowDown' ? 1 : -1
				// Past either end, back to the field's own text (no option chosen).
				const next = active + step
				setActive(next < -1 ? items.length - 1 : next >= items.length ? -1 : next)
			} else if (event.key === 'Enter' && open && active >= 0) {
				const chosen = items[active]
				if (!chosen) return
				event.preventDefault()
				close()
				navigate(chosen.href)
			} else if (event.key === 'Enter') {
				// The form goes to /search: the list, and any suggestions still on their way, are done
				// (on /search itself the address's path does not change, so nothing else closes it).
				clearTimeout(timer)
				asking?.abort()
				close()
			} else if (event.key === 'Escape' && open) {
				// Closes the list; a second Escape clears the field as a search field does.
				event.preventDefault()
				close()
			}
		}
		const onBlur = () => close()
		field.addEventListener('input', onInput)
		field.addEventListener('keydown', onKeyDown)
		field.addEventListener('blur', onBlur)
		// Typed before this script arrived: answer for it now.
		if (field.value.trim().length >= suggestFrom && document.activeElement === field) onInput()
		return () => {
			clearTimeout(timer)
			asking?.abort()
			field.removeEventListener('input', onInput)
			field.removeEventListener('keydown', onKeyDown)
			field.removeEventListener('blur', onBlur)
			for (const name of ['role', 'aria-autocomplete', 'aria-controls', 'aria-expanded'])
				field.removeAttribute(name)
			field.removeAttribute('aria-activedescendant')
		}
	}, [input, listId, navigate])

	useEffect(() => {
		const field = input.current
		if (!field) return
		field.setAttribute('aria-expanded', String(open))
		if (open && active >= 0) field.setAttribute('aria-activedescendant', `${listId}-${active}`)
		else field.removeAttribute('aria-activedescendant')
	}, [input, listId, open, active])

	// A new page, or new results on /search: the list has done its work.
	// biome-ignore lint/correctness/useExhaustiveDependencies: runs on each new address
	useEffect(() => {
		setOpen(false)
		setActive(-1)
	}, [location.pathname, location.search])

	const count = items.length
	return (
		<>
			<div
				id={listId}
				role="listbox"
				aria-label={t`Suggestions`}
				className="search-suggestions"
				hidden={!open}
				// The field keeps focus while an option is clicked.
				onMouseDown={(event) => event.preventDefault()}
			>
				{items.map((item, index) => (
					// biome-ignore lint/a11y/useKeyWithClickEvents: the field's keys choose options (combobox)
					<div
						key={item.href}
						id={`${listId}-${index}`}
						role="option"
						// Never focused: the field keeps focus and points here (aria-activedescendant).
						tabIndex={-1}
						aria-selected={index === active}
						className={index === active ? 'active' : undefined}
						onClick={() => {
							setOpen(false)
							navigate(item.href)
						}}
					>
						<span className="title">{item.title}</span>
						{item.kind === 'page' ? (
							<span className="kind">
								<Trans comment="Marks a suggestion that is a page, not an article">Page</Trans>
							</span>
						) : null}
					</div>
				))}
			</div>
			<p className="visually-hidden" role="status">
				{open
					? t`${plural(count, { one: '# suggestion', other: '# suggestions' })}, up and down arrows to choose`
					: ''}
			</p>
		</>
	)
}
