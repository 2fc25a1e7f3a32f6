// The interface's languages and how a request picks one (decision 033). Content (an article, a
// page) may be in any language; the interface is in one of the languages Canopy has catalogues
// for, among those the site offers.
import { type I18n, type Messages, setupI18n } from '@lingui/core'

/** The languages Canopy's interface is translated into: app/locales/<code>/. */
export const interfaceLocales = ['en', 'es', 'fr', 'ar'] as const
export type InterfaceLocale = (typeof interfaceLocales)[number]

/** Each language's name in itself, for the language switcher and "Also in". */
export const localeNames: Record<InterfaceLocale, string> = {
	en: 'English',
	es: 'Español',
	fr: 'Français',
	ar: 'العربية',
}

export function isInterfaceLocale(value: unknown): value is InterfaceLocale {
	return typeof value === 'string' && (interfaceLocales as readonly string[]).includes(value)
}

/**
 * The interface language for content in `tag`: the language itself where Canopy has it ("es"), or
 * its primary language ("es-MX" and "es-419" read in "es"); undefined when there is none.
 */
export function interfaceLocaleOf(tag: unknown): InterfaceLocale | undefined {
	if (isInterfaceLocale(tag)) return tag
	if (typeof tag !== 'string') return undefined
	const primary = tag.split(/[-_]/)[0]?.toLowerCase()
	return isInterfaceLocale(primary) ? primary : undefined
}

/** The cookie a reader's choice in the language switcher is kept in (a year). */
export const languageCookie = 'lang'

// Languages written right to left, by their primary subtag, and scripts written that way.
const rightToLeftLanguages = new Set([
	'ar',
	'arc',
	'ckb',
	'dv',
	'fa',
	'he',
	'iw',
	'ks',
	'ku',
	'nqo',
	'ps',
	'sd',
	'syr',
	'ug',
	'ur',
	'yi',
])
const rightToLeftScripts = new Set(['arab', 'hebr', 'thaa', 'syrc', 'nkoo', 'adlm', 'rohg', 'mand'])

/** The direction text in a language is written in: a BCP 47 tag such as "ar", "ur-PK", "az-Arab". */
export function directionOf(tag: string): 'ltr' | 'rtl' {
	const [language = '', ...rest] = tag.toLowerCase().split(/[-_]/)
	const script = rest.find((part) => part.length === 4)
	if (script) return rightToLeftScripts.has(script) ? 'rtl' : 'ltr'
	return rightToLeftLanguages.has(language) ? 'rtl' : 'ltr'
}

/** A language tag's name in a given language ("Arabic", "árabe"), or the tag where unknown. */
export function languageName(tag: string, inLocale: string): string {
	try {
		return new Intl.DisplayNames([inLocale], { type: 'language' }).of(tag) ?? tag
	} catch {
		return tag
	}
}

/** A language tag as stored: "pt-BR", "zh-Hant", "ar"; undefined when it is not one. */
export function normaliseLanguageTag(value: string): string | undefined {
	const text = value.trim()
	if (!/^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{2,8}){0,3}$/.test(text)) return undefined
	try {
		return Intl.getCanonicalLocales(text)[0]
	} catch {
		return undefined
	}
}

/**
 * The interface languages a request asks for, most wanted first: the language switcher's
 * cookie, then Accept-Language by its q-values. Only languages Canopy has catalogues for count,
 * so the answer is one of a few short lists (the page cache keys on it).
 */
export function requestedLocales(
	acceptLanguage: string | null | undefined,
	cookieLocale?: string,
): InterfaceLocale[] {
	const wanted: InterfaceLocale[] = []
	if (isInterfaceLocale(cookieLocale)) wanted.push(cookieLocale)
	const ranges = (acceptLanguage ?? '')
		.slice(0, 500)
		.split(',')
		.slice(0, 20)
		.map((part, index) => {
			const [range = '', ...parameters] = part.trim().split(';')
			const q = parameters
				.map((parameter) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(parameter)?.[1])
				.find((value) => value !== undefined)
			return {
				language: range.trim().toLowerCase().split('-')[0] ?? '',
				q: q ? Number(q) : 1,
				index,
			}
		})
		.filter((range) => range.q > 0)
		.sort((a, b) => b.q - a.q || a.index - b.index)
	for (const { language } of ranges) {
		if (isInterfaceLocale(language) && !wanted.includes(language)) wanted.push(language)
	}
	return wanted
}

/** The interface language for a request: the first it asks for that the site offers. */
export function chooseLocale(
	requested: readonly InterfaceLocale[],
	offered: readonly InterfaceLocale[],
	fallback: InterfaceLocale,
): InterfaceLocale {
	return requested.find((locale) => offered.includes(locale)) ?? fallback
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
	if (!header) return undefined
	for (const part of header.slice(0, 8_192).split(';')) {
		const at = part.indexOf('=')
		if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim()
	}
	return undefined
}

// One I18n per language, made once: the server holds every language's catalogues (a request in
// Arabic and one in Spanish render side by side); a browser holds the ones it has loaded.
const instances = new Map<string, I18n>()

/** Adds a catalogue's messages to a language (the public one, then the staff one if loaded). */
export function addMessages(locale: InterfaceLocale, messages: Messages): void {
	const known = instances.get(locale)
	if (known) {
		known.load(locale, messages)
		return
	}
	instances.set(locale, setupI18n({ locale, messages: { [locale]: messages } }))
}

/** The interface in a language; English (the messages as written) if its catalogue is not here. */
export function i18nFor(locale: string): I18n {
	const known = instances.get(locale) ?? instances.get('en')
	if (known) return known
	const english = setupI18n({ locale: 'en', messages: { en: {} } })
	instances.set('en', english)
	return english
}

export function hasMessages(locale: string): boolean {
	return instances.has(locale)
}
