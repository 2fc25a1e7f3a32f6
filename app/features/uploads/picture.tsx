// An image stored here as readers get it (decision 023): a <picture> offering AVIF and WebP
// versions at the widths the layout needs, its size given so nothing moves while it loads. An
// image from elsewhere, or of unknown size, is a plain <img>.
import { pictureSources, type ShownImage } from './responsive-image.ts'

/** The widths an article's images take: the text's column, less its padding on a phone. */
export const articleImageSizes = '(min-width: 44rem) 42rem, calc(100vw - 2rem)'

export function Picture({
	image,
	alt,
	sizes,
	className,
	priority = false,
}: {
	image: ShownImage
	alt: string
	sizes: string
	className?: string
	/** The page's main image, above the fold: fetched first and at once, not lazily. */
	priority?: boolean
}) {
	const offered = pictureSources(image)
	const size = image.width && image.height ? { width: image.width, height: image.height } : {}
	const loading = priority
		? ({ fetchPriority: 'high', loading: 'eager' } as const)
		: ({ loading: 'lazy' } as const)
	if (!offered)
		return (
			<img
				className={className}
				src={image.url}
				alt={alt}
				{...size}
				{...loading}
				decoding="async"
			/>
		)
	return (
		<picture>
			{offered.sources.map((source) => (
				<source key={source.type} type={source.type} srcSet={source.srcSet} sizes={sizes} />
			))}
			<img
				className={className}
				src={offered.src}
				srcSet={offered.srcSet}
				sizes={sizes}
				alt={alt}
				{...size}
				{...loading}
				decoding="async"
			/>
		</picture>
	)
}

/** An article's or a page's cover, when it has one. */
export function Cover({
	of,
	alt,
	...shown
}: {
	of: {
		coverImageUrl: string | null
		coverImageAlt: string | null
		coverImageWidth: number | null
		coverImageHeight: number | null
	}
	/** Instead of the cover's own description (a card's, beside the title it repeats: ''). */
	alt?: string
	sizes: string
	className?: string
	priority?: boolean
}) {
	if (!of.coverImageUrl) return null
	return (
		<Picture
			image={{ url: of.coverImageUrl, width: of.coverImageWidth, height: of.coverImageHeight }}
			alt={alt ?? of.coverImageAlt ?? ''}
			{...shown}
		/>
	)
}
