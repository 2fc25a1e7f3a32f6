// The versions process (versions-process.server.ts starts it): makes one image's versions per
// message and sends them back. It ends when the server that started it goes.
import { makeVersions } from './make-versions.server.ts'
import type { VersionsReply, VersionsRequest } from './versions-process.server.ts'

process.on('message', async (request: VersionsRequest) => {
	let reply: VersionsReply
	try {
		const versions = await makeVersions(request.bytes, request.mime, request.timeoutSeconds)
		reply = { id: request.id, versions }
	} catch (error) {
		reply = { id: request.id, error: error instanceof Error ? error.message : String(error) }
	}
	process.send?.(reply)
})
process.on('disconnect', () => process.exit(0))
