// PostgreSQL stores no NUL character in text, nor in JSON as \u0000, and refuses the whole
// statement when one arrives: a visitor's search or a pasted text would get a 500. Both adapters
// put the replacement character in its place before a string is bound, so the two databases
// store the same thing and no input can make a statement fail this way.
const nul = String.fromCharCode(0)

export function storableText(value: string): string {
	if (!value.includes(nul) && !value.includes('\\u0000')) return value
	return value.replaceAll(nul, '\uFFFD').replaceAll('\\u0000', '\\ufffd')
}
