// Reads an article file: YAML front matter between --- lines, then the Markdown body.
import { parse } from 'yaml'

export class FrontMatterError extends Error {}

export function parseArticleFile(text: string): Record<string, unknown> {
	const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text)
	if (!match)
		throw new FrontMatterError('The file must start with front matter between two "---" lines.')
	let data: unknown
	try {
		data = parse(match[1] ?? '')
	} catch (error) {
		throw new FrontMatterError(`The front matter is not valid YAML: ${(error as Error).message}`)
	}
	if (data === null || typeof data !== 'object' || Array.isArray(data)) {
		throw new FrontMatterError('The front matter must be a set of "key: value" lines.')
	}
	return { ...data, body: (match[2] ?? '').trim() }
}
