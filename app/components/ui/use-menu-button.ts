// A menu behind a Menu button (the public header's on a phone, the staff sidebar's below 64rem):
// the button toggles it; a link followed, a click or a tap outside it, or focus moving out of it
// closes it; Escape anywhere closes it and, from inside it, gives focus back to the button.
// Spread `button` on the button and `menu` on the element it opens.
import { useEffect, useId, useRef, useState } from 'react'
import { useLocation } from 'react-router'

export function useMenuButton() {
	const [open, setOpen] = useState(false)
	const menuId = useId()
	const buttonRef = useRef<HTMLButtonElement>(null)
	const menuRef = useRef<HTMLElement | null>(null)
	const { pathname } = useLocation()
	// biome-ignore lint/correctness/useExhaustiveDependencies: the location is the trigger
	useEffect(() => setOpen(false), [pathname])
	useEffect(() => {
		if (!open) return
		const inside = (target: EventTarget | null) =>
			target instanceof Node &&
			(buttonRef.current?.contains(target) || menuRef.current?.contains(target))
		const onPointerDown = (event: PointerEvent) => {
			if (!inside(event.target)) setOpen(false)
		}
		// Tab past the menu's last link (or Shift+Tab before the button): it is left behind.
		const onFocusIn = (event: FocusEvent) => {
			if (!inside(event.target)) setOpen(false)
		}
		const onKeyDown = (event: KeyboardEvent) => {
			if (event.key !== 'Escape') return
			if (menuRef.current?.contains(document.activeElement)) buttonRef.current?.focus()
			setOpen(false)
		}
		document.addEventListener('pointerdown', onPointerDown)
		document.addEventListener('focusin', onFocusIn)
		document.addEventListener('keydown', onKeyDown)
		return () => {
			document.removeEventListener('pointerdown', onPointerDown)
			document.removeEventListener('focusin', onFocusIn)
			document.removeEventListener('keydown', onKeyDown)
		}
	}, [open])
	return {
		open,
		button: {
			ref: buttonRef,
			'aria-expanded': open,
			'aria-controls': menuId,
			onClick: () => setOpen((was) => !was),
		},
		menu: {
			id: menuId,
			ref: (node: HTMLElement | null) => {
				menuRef.current = node
			},
		},
	}
}
