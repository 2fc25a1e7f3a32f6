// `npm run cli -- <command>` (cli-commands.ts), with Node's compile cache on as for the server
// (index.ts): a command loads the modules it needs in about two thirds of the time.
import { enableCompileCache } from 'node:module'

enableCompileCache()
await import('./cli-commands.ts')
