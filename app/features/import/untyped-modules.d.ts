// Types for the two modules the importer uses that ship without them.
declare module '@joplin/turndown-plugin-gfm' {
	import type TurndownService from 'turndown'
	export const gfm: TurndownService.Plugin
}

// The HTML parser turndown runs on; the importer reads excerpts' and titles' text with it.
declare module '@mixmark-io/domino' {
	export function createDocument(html?: string, force?: boolean): Document
}
