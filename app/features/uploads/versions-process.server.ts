// Image versions are made in a child process at a lower CPU priority (nice 10): on a 2-core
// server, encoding a 24-megapixel photo's nine versions would otherwise take a core the pages
// need, and a reader's page would wait for an image nobody is looking at yet. The process is
// started at the first image and kept; one that dies is started again for the next image. It
// never keeps the server alive.
import { type ChildProcess, fork } from 'node:child_process'
import { createRequire } from 'node:module'
import { setPriority } from 'node:os'
import type { ImageMime } from './image-types.ts'
import type { MadeVersion } from './make-versions.server.ts'

export interface VersionsRequest {
	id: number
	bytes: Uint8Array
	mime: ImageMime
	timeoutSeconds: number
}

export type VersionsReply = { id: number; versions: MadeVersion[] } | { id: number; error: string }

/** Below the server's own priority: versions use the CPU the pages leave. */
const niceness = 10

const childFile = createRequire(import.meta.url).resolve('#app/features/uploads/versions-child.ts')

let child: ChildProcess | undefined
let nextId = 0
const waiting = new Map<
	number,
	{ resolve: (versions: MadeVersion[]) => void; reject: (error: Error) => void }
>()

function versionsProcess(): ChildProcess {
	if (child?.connected) return child
	const started = fork(childFile, [], {
		serialization: 'advanced',
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	})
	child = started
	if (started.pid !== undefined) {
		try {
			setPriority(started.pid, niceness)
		} catch {
			// Not allowed here: the versions are made all the same, at the same priority.
		}
	}
	started.on('message', (reply: VersionsReply) => {
		const caller = waiting.get(reply.id)
		waiting.delete(reply.id)
		if (!caller) return
		if ('error' in reply) caller.reject(new Error(reply.error))
		else caller.resolve(reply.versions)
		if (waiting.size === 0) idle(started)
	})
	started.on('exit', (code, signal) => {
		if (child === started) child = undefined
		for (const [id, caller] of waiting) {
			waiting.delete(id)
			caller.reject(new Error(`the versions process ended (${signal ?? `code ${code}`})`))
		}
	})
	return started
}

/** Nothing waits on it: the server may exit without it. */
function idle(process: ChildProcess) {
	process.unref()
	;(process.channel as { unref?: () => void } | undefined)?.unref?.()
}

function busy(process: ChildProcess) {
	process.ref()
	;(process.channel as { ref?: () => void } | undefined)?.ref?.()
}

/**
 * An image's versions, made in the versions process. A process that takes longer than the time
 * limit and a margin is stopped (the image is tried again later by the job).
 */
export function makeVersionsAside(
	bytes: Uint8Array,
	mime: ImageMime,
	timeoutSeconds: number,
): Promise<MadeVersion[]> {
	const process = versionsProcess()
	busy(process)
	const id = ++nextId
	return new Promise<MadeVersion[]>((resolve, reject) => {
		const stuck = setTimeout(() => process.kill('SIGKILL'), (timeoutSeconds + 30) * 1000)
		stuck.unref()
		waiting.set(id, {
			resolve: (versions) => {
				clearTimeout(stuck)
				resolve(versions)
			},
			reject: (error) => {
				clearTimeout(stuck)
				reject(error)
			},
		})
		process.send({ id, bytes, mime, timeoutSeconds } satisfies VersionsRequest)
	})
}
