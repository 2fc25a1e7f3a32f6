import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router'

// About the size of Canopy's article page (some 28 KB of HTML): a header of links, the article's
// HTML as a string, and six cards of related articles, from memory.
const sentence =
	'A teaspoon of healthy soil holds more living things than there are people on Earth, and the fungi between roots carry water and sugar from tree to tree. '
const body = Array.from({ length: 16 }, (_, i) => `<p>${sentence.repeat(5 + (i % 3))}</p>`).join('')
const related = Array.from({ length: 6 }, (_, i) => ({
	slug: `related-${i}`,
	title: `A related article, number ${i + 1}`,
	summary: sentence,
	tags: [{ slug: 'soil', name: 'Soil' }],
}))

export function loader({ params }: LoaderFunctionArgs) {
	return { slug: params.slug ?? '', title: 'The living ground', body, related }
}

export function meta() {
	return [{ title: 'The living ground' }, { name: 'description', content: sentence }]
}

export default function Article() {
	const article = useLoaderData<typeof loader>()
	return (
		<>
			<header>
				<Link to="/">Site</Link>
				<nav>
					<Link to="/articles">Articles</Link> <Link to="/contact">Contact</Link>
				</nav>
			</header>
			<main>
				<article>
					<h1>{article.title}</h1>
					{/* biome-ignore lint/security/noDangerouslySetInnerHtml: fixed text of the bench's own */}
					<div dangerouslySetInnerHTML={{ __html: article.body }} />
				</article>
				<ul>
					{article.related.map((card) => (
						<li key={card.slug}>
							<h2>
								<Link to={`/articles/${card.slug}`}>{card.title}</Link>
							</h2>
							<p>{card.summary}</p>
							{card.tags.map((tag) => (
								<Link key={tag.slug} to={`/tags/${tag.slug}`}>
									{tag.name}
								</Link>
							))}
						</li>
					))}
				</ul>
			</main>
		</>
	)
}
