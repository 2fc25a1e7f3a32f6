// A Node script of the copy being measured, run to its end: the CLI (user:create), a build.
import { spawn } from 'node:child_process'
import type { Target } from './target.ts'

/** Runs a Node script of the checkout to its end, with input on stdin; rejects on failure. */
export function runNode(
	target: Target,
	args: string[],
	env: Record<string, string>,
	input = '',
	cwd = target.root,
): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, args, {
			cwd,
			env: { ...process.env, ...env },
			stdio: ['pipe', 'ignore', 'pipe'],
		})
		let errors = ''
		child.stderr?.on('data', (chunk: Buffer) => {
			errors += chunk.toString('utf8')
		})
		child.stdin?.end(input)
		child.once('error', reject)
		child.once('exit', (code) =>
			code === 0 ? resolve() : reject(new Error(`${args.join(' ')} failed (${code}): ${errors}`)),
		)
	})
}
