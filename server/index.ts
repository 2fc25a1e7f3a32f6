// `node server/index.ts` starts Canopy (start.ts). Node keeps the compiled code of the modules it
// loads in a cache on disk (by default in the system's temp folder), so every start after the
// first, and every command of the CLI, loads in about two thirds of the time.
import { enableCompileCache } from 'node:module'

enableCompileCache()
await import('./start.ts')
