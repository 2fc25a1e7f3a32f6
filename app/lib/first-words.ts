// A text shortened for a list or a field with a limit: on one line, cut at a word, with an
// ellipsis (the inbox's previews, an imported excerpt made a summary).

/** At most `length` characters and the ellipsis; cut at the last space when one is past half. */
export function firstWords(text: string, length: number): string {
	const line = text.replace(/\s+/g, ' ').trim()
	if (line.length <= length) return line
	const cut = line.slice(0, length)
	const lastSpace = cut.lastIndexOf(' ')
	return `${(lastSpace > length / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`
}
