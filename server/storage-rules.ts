// The features' decisions the storage carries out inside its transactions, given to it wherever
// it is opened (the server, the CLI, tests, benchmarks): the rule is the feature's, the atomicity
// the storage's (decision 022).
import { articleRules } from '#app/features/articles/publishing-rules.ts'
import type { StorageRules } from '#storage/port/storage.ts'

export const storageRules: StorageRules = { articles: articleRules }

/** The rules with what the operator set: how many revisions of an article are kept. */
export function configuredStorageRules(config: { revisionsKept: number }): StorageRules {
	return { articles: { ...articleRules, revisionsKept: config.revisionsKept } }
}
