// A worker thread of the Markdown pool (markdown.server.ts): renders one article's Markdown at a
// time, so a text that is slow to render holds up this thread, never the server's event loop.
import { renderMarkdownHere } from './markdown-pipeline.server.ts'

export default function render(markdown: string): Promise<string> {
	return renderMarkdownHere(markdown)
}
