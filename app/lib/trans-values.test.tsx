import { I18nProvider } from '@lingui/react'
import { Trans } from '@lingui/react/macro'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { i18nFor } from './i18n.ts'

function Signed({ name }: { name: string }) {
	return (
		<Trans>
			Signed in as <strong>{name}</strong>. <a href="/admin/account">Your account</a>
		</Trans>
	)
}

function Deleting({ name }: { name: string }) {
	return <Trans>The message from {name} will be deleted for good.</Trans>
}

const render = (name: string) =>
	renderToStaticMarkup(
		<I18nProvider i18n={i18nFor('en')}>
			<Signed name={name} />
		</I18nProvider>,
	)

describe('<Trans> with what people wrote', () => {
	it('keeps tags in a value as the text they are, beside the message’s own elements', () => {
		expect(render('<b>Ana</b> <0>x</0> <3')).toBe(
			'Signed in as <strong>&lt;b&gt;Ana&lt;/b&gt; &lt;0&gt;x&lt;/0&gt; &lt;3</strong>. <a href="/admin/account">Your account</a>',
		)
	})

	it('keeps them in a message without elements of its own too', () => {
		expect(
			renderToStaticMarkup(
				<I18nProvider i18n={i18nFor('en')}>
					<Deleting name="<b>Mallory</b>" />
				</I18nProvider>,
			),
		).toBe('The message from &lt;b&gt;Mallory&lt;/b&gt; will be deleted for good.')
	})

	it('places plain values as text', () => {
		expect(render('Ana Costa')).toBe(
			'Signed in as <strong>Ana Costa</strong>. <a href="/admin/account">Your account</a>',
		)
	})
})
