// A menu behind a Menu button (the public header's on a phone, the staff sidebar's below 64rem):
// the button toggles it; a link followed, a click or a tap outside it, or focus moving out of it
// closes it; Escape anywhere closes it and, from inside it, gives focus back to the button.
// Spread `button` on the button and `menu` on the element it opens. Before the page's scripts
// have loaded, MenuButtonScript (in <head>) opens and closes it; this takes over from the state
// it left.
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import { useLocation } from 'react-router'
import { menuButtonsHydrated } from './menu-button-script.tsx'

export function useMenuButton() {
	const [open, setOpen] = useState(false)
	const menuId = useId()
	const buttonRef = useRef<HTMLButtonElement>(null)
	const menuRef = useRef<HTMLElement | null>(null)
	const { pathname } = useLocation()
	// Before the first paint after hydration: the early script stands down, and a menu it opened
	// stays open.
	useLayoutEffect(() => {
		document.documentElement.setAttribute(menuButtonsHydrated, '')
		if (buttonRef.current?.getAttribute('aria-expanded') === 'true') setOpen(true)
	}, [])
	// A link followed closes it (not the first render: a menu opened early stays open).
	const shownAt = useRef(pathname)
	useEffect(() => {
		if (shownAt.current === pathname) return
		shownAt.current = pathname
		setOpen(false)
	}, [pathname])
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
			'data-menu-button': '',
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
