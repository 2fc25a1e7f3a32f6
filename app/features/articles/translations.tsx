// An article's or a page's other languages (decision 033): the "Also in" links readers see, and
// the hreflang alternates search engines read in the page's head.
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, type MetaDescriptor } from 'react-router'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { directionOf, type InterfaceLocale, languageName } from '#app/lib/i18n.ts'
import { absoluteUrl } from '#app/lib/seo.ts'
import type { ArticleKind } from '#storage/port/articles.ts'

export interface TranslationLink {
	slug: string
	title: string
	/** Its language tag; empty: the site's. */
	language: string
	kind: ArticleKind
}

/**
 * "Also in: Español, العربية": each language named in itself, each link a whole page load, so
 * the page comes in its own language's interface (root.tsx follows the content's language, unless
 * the reader chose one with the switcher).
 */
export function AlsoIn({
	translations,
	siteLanguage,
}: {
	translations: readonly TranslationLink[]
	siteLanguage: string
}) {
	const { t, i18n } = useLingui()
	if (translations.length === 0) return null
	return (
		// Interface words, inside content that may be in another language.
		<nav
			className="also-in"
			aria-label={t`Translations`}
			lang={i18n.locale}
			dir={directionOf(i18n.locale)}
		>
			<Trans>Also in:</Trans>{' '}
			<ul>
				{translations.map((translation) => {
					const language = translation.language || siteLanguage
					return (
						<li key={translation.slug}>
							<a
								href={publicPath(translation.kind, translation.slug)}
								hrefLang={language}
								lang={language}
								dir={directionOf(language)}
								title={translation.title}
							>
								{asLabel(languageName(language, language), language)}
							</a>
						</li>
					)
				})}
			</ul>
		</nav>
	)
}

/** `<link rel="alternate" hreflang>` for the page itself and each translation (Google's rules). */
export function languageAlternates(
	siteUrl: string,
	self: TranslationLink,
	translations: readonly TranslationLink[],
	siteLanguage: string,
): MetaDescriptor[] {
	if (translations.length === 0) return []
	return [self, ...translations].map((page) => ({
		tagName: 'link',
		rel: 'alternate',
		hrefLang: page.language || siteLanguage,
		href: absoluteUrl(siteUrl, publicPath(page.kind, page.slug)),
	}))
}

/**
 * Above a list shown in the reader's language: which language, and the way to every language
 * (`?lang=all`), or back. Only where the site offers more than one.
 */
export function ListLanguageNote({
	locale,
	all,
	noneInLanguage = false,
	path,
}: {
	locale: InterfaceLocale
	all: boolean
	/** Nothing is published in the reader's language yet, so every language's are shown. */
	noneInLanguage?: boolean
	path: string
}) {
	const { i18n } = useLingui()
	// Named as the interface's language writes it mid-sentence ("en español", "en français").
	const language = languageName(locale, i18n.locale)
	return (
		<p className="list-language">
			{noneInLanguage ? (
				<Trans>Nothing in {language} yet: articles in every language.</Trans>
			) : all ? (
				<Trans>
					Articles in every language. <Link to={path}>Only those in {language}</Link>
				</Trans>
			) : (
				<Trans>
					Articles in {language}. <Link to={`${path}?lang=all`}>Show every language</Link>
				</Trans>
			)}
		</p>
	)
}

/** A language's name as a link's label starts, in its own language ("español" → "Español"). */
function asLabel(name: string, language: string): string {
	try {
		return name.charAt(0).toLocaleUpperCase(language) + name.slice(1)
	} catch {
		return name.charAt(0).toUpperCase() + name.slice(1)
	}
}
