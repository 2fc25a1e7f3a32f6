// One axe pass per page state, in one place: WCAG 2.1 A/AA and axe's best practices. The
// markup is the same whatever the database, so the pass runs in the SQLite project only, as
// the whole-page audits do (docs/decisions/018-browser-tests-on-both-databases.md); the
// journeys around it still run on both.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import type { Result } from 'axe-core'
import { expect, test } from './canopy-test.ts'

export const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']

/** Each violation with its rule, help text and where it is, for a failure message. */
export function describeViolations(violations: Result[]): string {
	return violations
		.map((violation) => {
			const nodes = violation.nodes
				.map(
					(node) =>
						`    ${node.target.join(' ')}\n      ${node.failureSummary?.replaceAll('\n', '\n      ') ?? ''}`,
				)
				.join('\n')
			return `[${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})\n${nodes}`
		})
		.join('\n\n')
}

/**
 * Fails the test on any axe violation on the page as it is now; `state` names it in the message.
 * `exclude`: parts checked on their own (a frame holding another page, whose landmarks axe would
 * otherwise count as the outer page's).
 */
export async function expectNoAxeViolations(
	page: Page,
	state = page.url(),
	exclude: string[] = [],
): Promise<void> {
	if (test.info().project.name !== 'sqlite') return
	let builder = new AxeBuilder({ page }).withTags(axeTags)
	for (const selector of exclude) builder = builder.exclude(selector)
	const { violations } = await builder.analyze()
	expect(
		violations.map((violation) => `${violation.id}: ${violation.help}`),
		`axe violations (${state}):\n${describeViolations(violations)}`,
	).toEqual([])
}
