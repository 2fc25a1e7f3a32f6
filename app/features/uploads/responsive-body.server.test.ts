import { describe, expect, it } from 'vitest'
import { focusableScrollers } from './responsive-body.server.ts'

describe('focusableScrollers', () => {
	it('makes each table and code block a keyboard stop, so it scrolls without a pointer', () => {
		expect(
			focusableScrollers(
				'<table><thead><tr><th>Source</th></tr></thead></table><pre><code>x = 1</code></pre><p>pre and table</p>',
			),
		).toBe(
			'<table tabindex="0"><thead><tr><th>Source</th></tr></thead></table><pre tabindex="0"><code>x = 1</code></pre><p>pre and table</p>',
		)
	})
})
