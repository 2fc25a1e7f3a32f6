import { describe, expect, it } from 'vitest'
import { readingMinutes } from './reading-time.ts'

describe('readingMinutes', () => {
	it('counts words at the language’s rate, at least one minute', () => {
		expect(readingMinutes('', 'es')).toBe(1)
		expect(readingMinutes('palabra '.repeat(218), 'es')).toBe(1)
		expect(readingMinutes('palabra '.repeat(1100), 'es')).toBe(5)
		// Arabic is read at 138 words a minute, English at 228: the same count, other times.
		expect(readingMinutes('كلمة '.repeat(1380), 'ar')).toBe(10)
		expect(readingMinutes('word '.repeat(2280), 'en-GB')).toBe(10)
		// Markdown's signs are not words.
		expect(readingMinutes(`${'word '.repeat(456)} --- *** ###`, 'en')).toBe(2)
	})

	it('counts Chinese and Japanese by characters, not by the few spaces between them', () => {
		// 9,204 Han characters (and 767 full stops), no spaces: "1 min read" by the old word count.
		const chinese = '森林保护是我们共同的责任。'.repeat(767)
		expect(readingMinutes(chinese, 'zh')).toBe(36)
		expect(readingMinutes(chinese, 'zh-Hans-CN')).toBe(36)
		// Japanese is read faster, in characters a minute.
		expect(readingMinutes('ひらがなとカタカナと漢字'.repeat(300), 'ja')).toBe(10)
	})

	it('counts a text mixing scripts by both measures', () => {
		const mixed = `${'word '.repeat(228)}${'汉'.repeat(255)}`
		expect(readingMinutes(mixed, '')).toBe(2)
	})

	it('falls back to a mean rate for a language it has no figure for', () => {
		expect(readingMinutes('शब्द '.repeat(1840), 'hi')).toBe(10)
	})
})
