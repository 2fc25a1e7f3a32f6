import { describe, expect, it } from 'vitest'
import { clickedUrl, noticeFor, tabShowing } from './notice.ts'

const origin = 'https://news.example.org'

describe('noticeFor', () => {
	it('shows the article’s title and summary, and opens its address', () => {
		const notice = noticeFor(
			JSON.stringify({
				title: 'Wetlands return',
				summary: 'Beavers did it.',
				url: `${origin}/articles/wetlands-return`,
				icon: `${origin}/logo.svg`,
			}),
			origin,
		)
		expect(notice).toEqual({
			title: 'Wetlands return',
			options: {
				body: 'Beavers did it.',
				icon: `${origin}/logo.svg`,
				tag: `${origin}/articles/wetlands-return`,
				data: { url: `${origin}/articles/wetlands-return` },
			},
		})
	})

	it('still shows something for a message it cannot read, opening the articles page', () => {
		for (const message of [undefined, '', 'not json', '[1,2]', '{"title": 7}']) {
			const notice = noticeFor(message, origin)
			expect(notice.title).toBe('New article')
			expect(notice.options.data.url).toBe(`${origin}/articles`)
			expect(notice.options.body).toBe('')
		}
	})

	it('never opens another site’s address', () => {
		const notice = noticeFor(
			JSON.stringify({ title: 'Hi', url: 'https://evil.example/phish', summary: '' }),
			origin,
		)
		expect(notice.options.data.url).toBe(`${origin}/articles`)
		expect(noticeFor(JSON.stringify({ url: 'javascript:alert(1)' }), origin).options.data.url).toBe(
			`${origin}/articles`,
		)
	})
})

describe('clickedUrl', () => {
	it('is the notice’s own address, or the articles page when the data is missing or foreign', () => {
		expect(clickedUrl({ url: `${origin}/articles/a` }, origin)).toBe(`${origin}/articles/a`)
		expect(clickedUrl(null, origin)).toBe(`${origin}/articles`)
		expect(clickedUrl({ url: 'https://elsewhere.example/' }, origin)).toBe(`${origin}/articles`)
	})
})

describe('tabShowing', () => {
	const tabs = [
		{ url: `${origin}/home`, id: 1 },
		{ url: `${origin}/articles/a#comments`, id: 2 },
	]
	it('finds the tab showing the article, whatever its fragment', () => {
		expect(tabShowing(tabs, `${origin}/articles/a`)?.id).toBe(2)
	})
	it('finds none when no tab shows it: the article opens in a new one', () => {
		expect(tabShowing(tabs, `${origin}/articles/b`)).toBeUndefined()
	})
})
