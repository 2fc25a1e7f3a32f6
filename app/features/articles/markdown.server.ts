// Article Markdown → sanitised HTML, for every path that stores or previews an article. Checked
// first against the limits no article needs (markdown-limits.ts), then rendered in a pool of
// worker threads with a time limit: the server's event loop never waits on a render, and a render
// that runs past the limit is stopped (its thread ended) and refused.

import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import Piscina from 'piscina'
import { markdownLimitProblem } from './markdown-limits.ts'

/** A render longer than this is stopped; nothing people write takes a tenth of it. */
export const renderTimeLimitMs = 2_000

/** Markdown that is not rendered: over a limit, or too slow. The message is for its author. */
export class MarkdownRefused extends Error {}

export const tooSlowMessage = `The text took longer than ${renderTimeLimitMs / 1000} seconds to turn into a page, so it was not saved. Simplify its formatting: fewer nested quotes, lists, brackets or emphasis marks.`
export const busyMessage =
	'The server is rendering many texts just now. Wait a few seconds and try again.'

// The worker file by its package path: the same source file whether this module runs from
// source (tests, the CLI) or bundled into the server build.
const workerFile = createRequire(import.meta.url).resolve(
	'#app/features/articles/markdown-worker.ts',
)

let pool: Piscina<string, string> | undefined
/**
 * The pool's first render, of nothing: a thread's start and the pipeline's loading are not the
 * text's doing, so they are waited for before a render's time limit starts (on a busy 2-core
 * machine they alone have taken over 2 s).
 */
let warmedUp: Promise<unknown> | undefined

function markdownPool(): Piscina<string, string> {
	pool ??= new Piscina({
		filename: workerFile,
		minThreads: 1,
		// One thread for the rest of the server, at least one for renders.
		maxThreads: Math.max(1, availableParallelism() - 1),
		// Texts waiting beyond this are refused at once rather than queued for seconds.
		maxQueue: 64,
		idleTimeout: 60_000,
		// A text that would need more memory or stack than this fails in its thread alone.
		resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 4 },
	})
	return pool
}

/**
 * Starts a render thread and loads the pipeline in it now, for renders known to come (a new
 * site's samples), so the caller can do other work meanwhile. Renders wait for it anyway.
 */
export function warmMarkdownPool(): void {
	warmedUp ??= markdownPool()
		.run('')
		.catch(() => undefined)
}

/** Sanitised HTML for the Markdown; throws MarkdownRefused with a message for its author. */
export async function renderMarkdown(
	markdown: string,
	timeLimitMs = renderTimeLimitMs,
): Promise<string> {
	const problem = markdownLimitProblem(markdown)
	if (problem) throw new MarkdownRefused(problem)
	const workers = markdownPool()
	if (workers.queueSize >= workers.options.maxQueue) throw new MarkdownRefused(busyMessage)
	warmMarkdownPool()
	await warmedUp
	try {
		return await workers.run(markdown, { signal: AbortSignal.timeout(timeLimitMs) })
	} catch (error) {
		if ((error as Error).name === 'AbortError') throw new MarkdownRefused(tooSlowMessage)
		// Out of stack or memory in its thread: the text, not the server, is at fault.
		if (error instanceof RangeError || (error as { code?: string }).code?.startsWith('ERR_WORKER'))
			throw new MarkdownRefused(tooSlowMessage)
		throw error
	}
}

/** Ends the pool's threads (a process about to exit; idle threads do not keep it alive). */
export async function closeMarkdownPool(): Promise<void> {
	const closing = pool
	pool = undefined
	warmedUp = undefined
	await closing?.destroy()
}
