/** Escapes LIKE's wildcards so a search for "50%" finds "50%" (use with `escape '\\'`). */
export function likePattern(words: string): string {
	return `%${words.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
