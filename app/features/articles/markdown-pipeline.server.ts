// Article Markdown → sanitised HTML, in the thread that calls it. Raw HTML in the Markdown is
// dropped (remark-rehype without allowDangerousHtml), and the result passes rehype-sanitize's
// GitHub-style allow-list. The server runs it in worker threads (markdown.server.ts). An image
// alone in its paragraph with a title (`![A heron](/media/….jpg "On the Tagus, May")`) becomes a
// figure with that title as its caption, made after sanitising from what sanitising kept.
import type { Element, ElementContent, Root } from 'hast'
import rehypeSanitize from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'

const processor = unified()
	.use(remarkParse)
	.use(remarkGfm)
	.use(remarkRehype)
	.use(rehypeSanitize)
	.use(rehypeFigures)
	.use(rehypeStringify)
	.freeze()

/** A paragraph holding one titled image and nothing else, as a figure with its caption. */
function asFigure(node: ElementContent): Element | undefined {
	if (node.type !== 'element' || node.tagName !== 'p') return undefined
	const content = node.children.filter((child) => !(child.type === 'text' && !child.value.trim()))
	const image = content[0]
	if (content.length !== 1 || image?.type !== 'element' || image.tagName !== 'img') return undefined
	const { title, ...properties } = image.properties
	if (typeof title !== 'string' || !title.trim()) return undefined
	return {
		type: 'element',
		tagName: 'figure',
		properties: {},
		children: [
			{ ...image, properties },
			{
				type: 'element',
				tagName: 'figcaption',
				properties: {},
				children: [{ type: 'text', value: title.trim() }],
			},
		],
	}
}

function rehypeFigures() {
	const visit = (parent: Root | Element) => {
		parent.children = parent.children.map((child) => {
			const figure = child.type === 'doctype' ? undefined : asFigure(child)
			if (figure) return figure
			if (child.type === 'element') visit(child)
			return child
		}) as typeof parent.children
	}
	return (tree: Root) => visit(tree)
}

export async function renderMarkdownHere(markdown: string): Promise<string> {
	return String(await processor.process(markdown))
}
