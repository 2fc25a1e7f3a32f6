import type { MetaDescriptor } from 'react-router'

export interface PageMetaInput {
	title: string
	description: string
	/** Absolute URL of this page. */
	url: string
	siteTitle: string
	image?: { url: string; alt: string } | null
	type?: 'website' | 'article'
	jsonLd?: Record<string, unknown>
}

/** An article's or a page's own words for search engines and shared links, where it has them. */
export interface SeoOverrides {
	title: string
	summary: string
	coverImageUrl: string | null
	coverImageAlt: string | null
	seoTitle?: string
	seoDescription?: string
	socialImageUrl?: string | null
}

/**
 * The title, description and image an article or a page gives search engines and shared links:
 * its SEO fields where an editor filled them in, else its title, summary (else `fallback`) and
 * cover.
 */
export function seoOf(
	item: SeoOverrides,
	siteUrl: string,
	fallback: string,
): Pick<PageMetaInput, 'title' | 'description' | 'image'> {
	const imageUrl = item.socialImageUrl || item.coverImageUrl
	return {
		title: item.seoTitle || item.title,
		description: item.seoDescription || item.summary || fallback,
		image: imageUrl
			? {
					url: absoluteUrl(siteUrl, imageUrl),
					alt: imageUrl === item.coverImageUrl ? (item.coverImageAlt ?? '') : item.title,
				}
			: null,
	}
}

/** Everything a route's meta needs: a route's meta replaces the root's, so each route calls this. */
export function pageMeta(input: PageMetaInput): MetaDescriptor[] {
	const fullTitle =
		input.title === input.siteTitle ? input.title : `${input.title} · ${input.siteTitle}`
	const meta: MetaDescriptor[] = [
		{ title: fullTitle },
		{ name: 'description', content: input.description },
		{ tagName: 'link', rel: 'canonical', href: input.url },
		{ property: 'og:site_name', content: input.siteTitle },
		{ property: 'og:type', content: input.type ?? 'website' },
		{ property: 'og:title', content: input.title },
		{ property: 'og:description', content: input.description },
		{ property: 'og:url', content: input.url },
		{ name: 'twitter:card', content: input.image ? 'summary_large_image' : 'summary' },
		{ name: 'twitter:title', content: input.title },
		{ name: 'twitter:description', content: input.description },
	]
	if (input.image) {
		meta.push(
			{ property: 'og:image', content: input.image.url },
			{ property: 'og:image:alt', content: input.image.alt },
			{ name: 'twitter:image', content: input.image.url },
		)
	}
	if (input.jsonLd) meta.push({ 'script:ld+json': input.jsonLd })
	return meta
}

export function absoluteUrl(siteUrl: string, path: string): string {
	return new URL(path, `${siteUrl}/`).toString()
}
