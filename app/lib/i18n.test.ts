import { describe, expect, it } from 'vitest'
import {
	chooseLocale,
	cookieValue,
	directionOf,
	interfaceLocaleOf,
	normaliseLanguageTag,
	requestedLocales,
} from './i18n.ts'

describe('the interface language of a request', () => {
	it('reads Accept-Language by its weights, keeping only languages with a catalogue', () => {
		expect(requestedLocales('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual(['fr', 'en'])
		expect(requestedLocales('en;q=0.2, ar-EG;q=0.9')).toEqual(['ar', 'en'])
		expect(requestedLocales('es;q=0, fr')).toEqual(['fr'])
		expect(requestedLocales('')).toEqual([])
		expect(requestedLocales(undefined)).toEqual([])
		expect(requestedLocales(';;;,,,q=,;q=x')).toEqual([])
	})

	it('puts the switcher’s choice first, and ignores a cookie naming no catalogue', () => {
		expect(requestedLocales('es, en', 'ar')).toEqual(['ar', 'es', 'en'])
		expect(requestedLocales('es', 'xx')).toEqual(['es'])
	})

	it('picks the first asked for that the site offers, or the site’s own', () => {
		expect(chooseLocale(['fr', 'es'], ['es', 'ar'], 'es')).toBe('es')
		expect(chooseLocale(['ar'], ['es', 'ar'], 'es')).toBe('ar')
		expect(chooseLocale(['fr'], ['es'], 'es')).toBe('es')
		expect(chooseLocale([], ['en'], 'en')).toBe('en')
	})

	it('reads a long or hostile header in bounded time', () => {
		const started = performance.now()
		expect(requestedLocales(`${'x,'.repeat(100_000)}es`)).toEqual([])
		expect(cookieValue(`${'a=b; '.repeat(100_000)}lang=es`, 'lang')).toBeUndefined()
		expect(performance.now() - started).toBeLessThan(1_000)
	})
})

describe('languages of content', () => {
	it('knows which are written right to left, by language or by script', () => {
		for (const tag of ['ar', 'ar-EG', 'he', 'fa-IR', 'ur', 'ps', 'yi', 'az-Arab', 'pa-Arab'])
			expect(directionOf(tag), tag).toBe('rtl')
		for (const tag of ['en', 'es', 'zh-Hans', 'hi', 'ru', 'az', 'pa', 'sr-Latn', 'ku-Latn'])
			expect(directionOf(tag), tag).toBe('ltr')
	})

	it('keeps well-formed language tags in their canonical case, and nothing else', () => {
		expect(normaliseLanguageTag('pt-br')).toBe('pt-BR')
		expect(normaliseLanguageTag(' zh-hant ')).toBe('zh-Hant')
		expect(normaliseLanguageTag('AR')).toBe('ar')
		for (const bad of ['', 'english', 'e', '12', 'en_US', 'en-', '<script>', 'a'.repeat(300)])
			expect(normaliseLanguageTag(bad), bad).toBeUndefined()
	})
	it('reads content in a regional variety with the interface in its language', () => {
		expect(interfaceLocaleOf('es-MX')).toBe('es')
		expect(interfaceLocaleOf('es-419')).toBe('es')
		expect(interfaceLocaleOf('fr-CA')).toBe('fr')
		expect(interfaceLocaleOf('ar')).toBe('ar')
		for (const none of ['ru', 'zh-Hant', 'pt-BR', '', undefined, 42])
			expect(interfaceLocaleOf(none), String(none)).toBeUndefined()
	})
})
