import { describe, expect, it } from 'vitest'
import { dominantScript, scriptName, writtenIn } from './text-script.ts'

describe('the script a text is written in', () => {
	it.each([
		['Когда болото осушают, торф начинает окисляться и выделять углекислый газ.', 'Cyrl'],
		['Peatlands store twice as much carbon as all the world’s forests.', 'Latn'],
		['Οι υγρότοποι αποθηκεύουν άνθρακα για χιλιάδες χρόνια.', 'Grek'],
		['تخزن أراضي الخث الكربون لآلاف السنين في العالم كله.', 'Arab'],
		['森林保护是我们这个时代最重要的工作之一，每个人都可以参与其中。', 'Hani'],
		['森林を守ることは、私たちの時代で最も大切な仕事のひとつです。', 'Kana'],
		['पीटलैंड हजारों वर्षों तक कार्बन जमा करते हैं।', 'Deva'],
	])('%s → %s', (text, script) => {
		expect(dominantScript(text)).toBe(script)
	})

	it('leaves out links and image addresses, which are Latin whatever the text', () => {
		const russian = `Торфяники хранят углерод. ![Осушенный торфяник](/media/20adaf398977c84f54fbe772080c2f2adf32f3023e197da685bb495f23123486.png) [Источник](https://example.org/a-very-long-english-address-about-peatlands-and-carbon)`
		expect(dominantScript(russian)).toBe('Cyrl')
	})

	it('tells nothing of a short or a mixed text', () => {
		expect(dominantScript('Торф')).toBeUndefined()
		expect(
			dominantScript('Peat bogs торфяники Peat bogs торфяники Peat bogs торфяники'),
		).toBeUndefined()
		expect(dominantScript('')).toBeUndefined()
	})

	it('knows which languages are written in which script', () => {
		expect(writtenIn('en', 'Cyrl')).toBe(false)
		expect(writtenIn('ru', 'Cyrl')).toBe(true)
		expect(writtenIn('sr-Latn', 'Latn')).toBe(true)
		expect(writtenIn('ja', 'Kana')).toBe(true)
		expect(writtenIn('ja', 'Hani')).toBe(true)
		expect(writtenIn('zh', 'Hani')).toBe(true)
		expect(writtenIn('es', 'Arab')).toBe(false)
		expect(writtenIn('not a tag', 'Latn')).toBe(true)
	})

	it('names a script in the interface’s language', () => {
		expect(scriptName('Cyrl', 'en')).toBe('Cyrillic')
		expect(scriptName('Cyrl', 'fr')).toMatch(/^cyrillique$/i)
	})
})
