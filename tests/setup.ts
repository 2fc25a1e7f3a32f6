// Every Vitest test: a console.error during the test fails it, so an error nobody asserted on
// cannot pass silently.
import { afterEach, beforeEach, vi } from 'vitest'

let logged: unknown[][] = []

beforeEach(() => {
	logged = []
	vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
		logged.push(args)
	})
})

afterEach(() => {
	vi.restoreAllMocks()
	if (logged.length > 0) {
		const first = logged[0]
			?.map((part) => (part instanceof Error ? part.stack : String(part)))
			.join(' ')
		throw new Error(`console.error was called ${logged.length} time(s) during the test: ${first}`)
	}
})
