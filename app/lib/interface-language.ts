// Interface words inside content in another language: an English page's "5 min read" inside a
// Russian <article lang="ru"> must say it is English, or a screen reader reads it with Russian
// rules and a translator skips it.
import { useLingui } from '@lingui/react/macro'
import { directionOf, interfaceLocaleOf } from './i18n.ts'

export interface LanguageAttributes {
	lang?: string
	dir?: 'ltr' | 'rtl'
}

/**
 * `lang` and `dir` for interface words inside content written in `contentLanguage`; nothing when
 * the interface is in that language already.
 */
export function useInterfaceLanguage(contentLanguage: string): LanguageAttributes {
	const { i18n } = useLingui()
	const locale = i18n.locale
	return !contentLanguage || interfaceLocaleOf(contentLanguage) === locale
		? {}
		: { lang: locale, dir: directionOf(locale) }
}

/** `lang` and `dir` for text in `language`, back inside interface words (a title in a list). */
export function textLanguage(language: string | undefined): LanguageAttributes {
	return language ? { lang: language, dir: directionOf(language) } : {}
}
