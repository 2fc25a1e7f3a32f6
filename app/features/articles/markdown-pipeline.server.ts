// Article Markdown → sanitised HTML, in the thread that calls it. Raw HTML in the Markdown is
// dropped (remark-rehype without allowDangerousHtml), and the result passes rehype-sanitize's
// GitHub-style allow-list. The server runs it in worker threads (markdown.server.ts).
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
	.use(rehypeStringify)
	.freeze()

export async function renderMarkdownHere(markdown: string): Promise<string> {
	return String(await processor.process(markdown))
}

const wordsPerMinute = 220

export function readingMinutes(markdown: string): number {
	const words = markdown.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length
	return Math.max(1, Math.round(words / wordsPerMinute))
}
