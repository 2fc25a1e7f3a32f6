import { type I18n, setupI18n } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import { I18nProvider } from '@lingui/react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { messages as ar } from '#app/locales/ar/public.po'
import { messages as en } from '#app/locales/en/public.po'
import { messages as es } from '#app/locales/es/public.po'
import { messages as fr } from '#app/locales/fr/public.po'
import { AuthorLinks, byline, readingTime } from './article-card.tsx'

// Instances of the test's own, with the shipped catalogues: nothing here changes the app's.
const catalogues = { ar, en, es, fr }
const instances = new Map(
	Object.entries(catalogues).map(([locale, messages]) => [
		locale,
		setupI18n({ locale, messages: { [locale]: messages } }),
	]),
)
const i18nFor = (locale: keyof typeof catalogues) => instances.get(locale) as I18n

const people = (...names: string[]) =>
	names.map((name) => ({ name, slug: name.toLowerCase().replace(/\W+/g, '-') }))

const authorsIn = (locale: keyof typeof catalogues, names: string[]) =>
	renderToStaticMarkup(
		<I18nProvider i18n={i18nFor(locale)}>
			<AuthorLinks authors={people(...names)} />
		</I18nProvider>,
	).replace(/<a class="author-link" href="\/authors\/[^"]+"[^>]*>([^<]*)<\/a>/g, '[$1]')

describe('a card’s authors', () => {
	it('joins the names as each language joins a list, each a link to their page', () => {
		expect(authorsIn('en', ['Ana Lima', 'Ben Okafor', 'Chloé Martin'])).toBe(
			'[Ana Lima], [Ben Okafor] and [Chloé Martin]',
		)
		expect(authorsIn('fr', ['Ana', 'Ben'])).toBe('[Ana] et [Ben]')
		expect(authorsIn('en', ['Ana'])).toBe('[Ana]')
	})

	it('joins by the names themselves where the language does, even after joining others', () => {
		expect(authorsIn('es', ['Ana', 'Ben'])).toBe('[Ana] y [Ben]')
		expect(authorsIn('es', ['Ana', 'Ignacio'])).toBe('[Ana] e [Ignacio]')
		expect(authorsIn('es', ['Ana', 'Ben'])).toBe('[Ana] y [Ben]')
	})

	it('links each name to its own page in the order written', () => {
		const html = renderToStaticMarkup(
			<I18nProvider i18n={i18nFor('en')}>
				<AuthorLinks authors={people('Zoe', 'Adam')} />
			</I18nProvider>,
		)
		expect([...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1])).toEqual([
			'/authors/zoe',
			'/authors/adam',
		])
	})
})

describe('a card’s byline and reading time', () => {
	it('say who wrote it and how long it takes in the interface’s language', () => {
		expect(byline(i18nFor('en'))).toEqual(['By ', ''])
		expect(byline(i18nFor('es'))).toEqual(['Por ', ''])
		expect(readingTime(i18nFor('en'), 1)).toBe('1 min read')
		expect(readingTime(i18nFor('fr'), 12)).toBe('12 min de lecture')
		expect(readingTime(i18nFor('ar'), 2)).toBe('قراءة في دقيقتين')
		expect(readingTime(i18nFor('ar'), 1)).toBe('قراءة في دقيقة واحدة')
	})

	it('are made once per language, though each render sees the language through a new wrapper', () => {
		const i18n = setupI18n({ locale: 'fr', messages: { fr: { ...fr } } })
		const translate = i18n._.bind(i18n)
		let made = 0
		i18n._ = ((...args: Parameters<I18n['_']>) => {
			made++
			return translate(...args)
		}) as I18n['_']
		// What I18nProvider hands each render's components (a Proxy of the one I18n).
		const seenByARender = () => new Proxy(i18n, {})
		expect(readingTime(seenByARender(), 4)).toBe('4 min de lecture')
		expect(readingTime(seenByARender(), 4)).toBe('4 min de lecture')
		expect(byline(seenByARender())).toEqual(['Par ', ''])
		expect(byline(seenByARender())).toEqual(['Par ', ''])
		expect(made).toBe(2)
	})

	it('are made afresh when the language’s messages change', () => {
		const i18n = setupI18n({ locale: 'en', messages: { en: { ...en } } })
		expect(readingTime(i18n, 3)).toBe('3 min read')
		const minutes = 3
		const { id } = msg`${plural(minutes, { one: '# min read', other: '# min read' })}`
		i18n.load('en', { [id]: es[id] as string })
		expect(readingTime(i18n, 3)).toBe('3 min de lectura')
	})
})
