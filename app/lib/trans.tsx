// Lingui's <Trans>, as the macro imports it (lingui.config.ts, runtimeConfigModule). Lingui puts
// text values into the message and then reads the message for its own element tags (<0>…</0>),
// so a value holding tags of its own (a reader's "<b>bold</b>" in a message, a title with
// "<3") lost them and logged an error. Such a value goes in as an element instead, which Lingui
// places without reading it. Numbers and tag-free text (plural and select values) go as they are.
import type { TransProps } from '@lingui/react'
import { Trans as LinguiTrans } from '@lingui/react'
import { createElement, Fragment } from 'react'

export function Trans(props: TransProps) {
	const { values } = props
	let safe: TransProps['values']
	for (const [key, value] of Object.entries(values ?? {})) {
		if (typeof value !== 'string' || !value.includes('<')) continue
		safe ??= { ...values }
		safe[key] = createElement(Fragment, null, value)
	}
	return createElement(LinguiTrans, safe ? { ...props, values: safe } : props)
}
