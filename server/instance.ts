// This process, as other instances on the same database see it: the holder named on the leases
// it takes (job_runs) and the one that adds a new site's sample content.
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'

/** host:pid:random; the random part tells apart two processes that had the same pid. */
export const processName = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
