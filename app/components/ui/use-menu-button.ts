// A menu behind a Menu button (the public header's on a phone, the staff sidebar's below 64rem):
// the button toggles it, a link followed closes it, Escape in it closes it and gives focus back
// to the button. Spread `button` on the button and `menu` on the element it opens.
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { useLocation } from 'react-router'

export function useMenuButton() {
	const [open, setOpen] = useState(false)
	const menuId = useId()
	const buttonRef = useRef<HTMLButtonElement>(null)
	const { pathname } = useLocation()
	// biome-ignore lint/correctness/useExhaustiveDependencies: the location is the trigger
	useEffect(() => setOpen(false), [pathname])
	return {
		open,
		button: {
			ref: buttonRef,
			'aria-expanded': open,
			'aria-controls': menuId,
			onClick: () => setOpen((was) => !was),
			onKeyDown: (event: KeyboardEvent) => {
				if (event.key === 'Escape') setOpen(false)
			},
		},
		menu: {
			id: menuId,
			onKeyDown: (event: KeyboardEvent) => {
				if (event.key !== 'Escape' || !open) return
				setOpen(false)
				buttonRef.current?.focus()
			},
		},
	}
}
