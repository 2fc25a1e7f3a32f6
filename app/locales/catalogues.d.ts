// A .po catalogue as Lingui's Vite plugin compiles it on import.
declare module '*.po' {
	import type { Messages } from '@lingui/core'
	export const messages: Messages
}
