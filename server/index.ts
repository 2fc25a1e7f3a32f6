// `node server/index.ts` starts Canopy (start.ts). Node keeps the compiled code of the modules it
// loads in a cache on disk (by default in the system's temp folder), so every start after the
// first, and every command of the CLI, loads in about two thirds of the time.
import { enableCompileCache } from 'node:module'

enableCompileCache()
// React and React Router pick their builds from NODE_ENV when first imported, and start.ts's own
// imports load them: unset means their development builds (about half as fast, and a development
// React beside a production React DOM cannot render), so it is set before anything is imported.
process.env.NODE_ENV ??= 'production'
await import('./start.ts')
