// The databases the browser tests run on: SQLite always, PostgreSQL when TEST_DATABASE_URL names
// a server to make schemas on, and always in CI. Read by playwright.config.ts (a project per
// database) and by run.ts (which says why PostgreSQL was left out), so plain erasable TypeScript.

export type E2eDatabase = 'sqlite' | 'postgres'

const postgresMissing =
	'CI must run the browser tests on PostgreSQL too: set TEST_DATABASE_URL to a PostgreSQL ' +
	'database where schemas can be made, e.g. postgres://postgres@127.0.0.1:5432/test (see .ci/run).'

export const postgresSkipped =
	'Browser tests on PostgreSQL skipped: TEST_DATABASE_URL is not set (e.g. ' +
	'TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run test:e2e); they ran on SQLite only.'

export function e2eDatabases(env: NodeJS.ProcessEnv = process.env): E2eDatabase[] {
	if (env.TEST_DATABASE_URL) return ['sqlite', 'postgres']
	if (env.CI) throw new Error(postgresMissing)
	return ['sqlite']
}
