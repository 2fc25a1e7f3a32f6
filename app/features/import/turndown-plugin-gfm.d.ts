// The GitHub-flavoured rules for turndown ship without types; this is the one export used.
declare module '@joplin/turndown-plugin-gfm' {
	import type TurndownService from 'turndown'
	export const gfm: TurndownService.Plugin
}
