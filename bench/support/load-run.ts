// Runs bench/support/load-client.ts (autocannon, never pipelined) as a process of its own and
// reads its one-line summary. A run with an error or a non-2xx answer is refused: its rate
// would not be the rate of the page asked for.
import { join } from 'node:path'
import type { LoadOptions, LoadResult } from './load-client.ts'
import { jsonFromNode } from './processes.ts'
import type { Target } from './target.ts'

export async function runLoad(
	target: Target,
	options: LoadOptions,
	cpu?: number,
): Promise<LoadResult> {
	const seconds = options.warmupSeconds + options.seconds + 30
	const result = await jsonFromNode<LoadResult>(
		[join(target.root, 'bench/support/load-client.ts'), JSON.stringify(options)],
		{ cpu },
		seconds * 1000,
		'autocannon',
	)
	if (result.errors > 0 || result.non2xx > 0 || result.requests === 0) {
		throw new Error(
			`load run against ${[options.url].flat().join(' + ')} had ${result.errors} errors and ${result.non2xx} non-2xx answers`,
		)
	}
	return result
}
