import { describe, expect, it } from 'vitest'
import {
	markdownLimitProblem,
	maxBracketDepth,
	maxContainerDepth,
	maxEmphasisMarks,
} from './markdown-limits.ts'

describe('markdownLimitProblem', () => {
	it('takes what people write: quotes in lists, links, emphasis, code', () => {
		const article = [
			'# Peatlands',
			'',
			'> A quote, with *emphasis* and a [link](https://example.org "title").',
			'> > A reply, quoted.',
			'',
			'1. First',
			'   - a point with **strong** words and [a [nested] label](#x)',
			'     - deeper',
			'',
			'```js',
			`${' '.repeat(120)}const deep = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`,
			'```',
			'',
			`${'_a_ '.repeat(500)}`,
		].join('\n')
		expect(markdownLimitProblem(article)).toBeUndefined()
		expect(markdownLimitProblem('> '.repeat(maxContainerDepth))).toBeUndefined()
		expect(markdownLimitProblem('['.repeat(maxBracketDepth))).toBeUndefined()
	})

	it.each([
		['90,000 nested quotes', `${'> '.repeat(90_000)}x`, 'quotes or lists more than 20 levels'],
		['5,000 nested quotes', `${'>'.repeat(5_000)}x`, 'quotes or lists more than 20 levels'],
		['nested list markers', `${'- '.repeat(21)}x`, 'quotes or lists more than 20 levels'],
		['ordered list markers', `${'1. '.repeat(21)}x`, 'quotes or lists more than 20 levels'],
		['150,000 unclosed brackets', '['.repeat(150_000), 'more than 200 square brackets'],
		['25,000 emphasis runs', '*a **a '.repeat(25_000), 'more than 2,000 emphasis marks'],
	])('refuses %s, naming the limit', (_name, markdown, message) => {
		expect(markdownLimitProblem(markdown)).toContain(message)
	})

	it('counts emphasis marks per paragraph, and brackets closed as they go', () => {
		const paragraph = '*a* '.repeat(maxEmphasisMarks / 2)
		expect(markdownLimitProblem(`${paragraph}\n\n${paragraph}`)).toBeUndefined()
		expect(markdownLimitProblem(`${paragraph}\n${paragraph}*`)).toContain('emphasis marks')
		expect(markdownLimitProblem('[x] '.repeat(10_000))).toBeUndefined()
	})
})
