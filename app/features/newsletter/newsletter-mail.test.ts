import { describe, expect, it } from 'vitest'
import { addMessages } from '#app/lib/i18n.ts'
import {
	articleMail,
	confirmationMail,
	digestMail,
	type MailArticle,
	type MailLinks,
	type MailSite,
} from './newsletter-mail.tsx'

const site: MailSite = {
	title: 'Canopy',
	siteUrl: 'https://canopy.example/',
	logoUrl: 'https://canopy.example/logo.png',
}
const links: MailLinks = {
	unsubscribe: 'https://canopy.example/newsletter/unsubscribe?token=u-123',
	preferences: 'https://canopy.example/newsletter/preferences?token=p-456',
	viewInBrowser: 'https://canopy.example/articles/peatlands',
}
const article: MailArticle = {
	title: 'Why peatlands matter',
	summary: 'Peat covers three per cent of the land and stores twice the carbon of all forests.',
	url: 'https://canopy.example/articles/peatlands',
	publishedAt: '2026-11-25T08:30:00Z',
	coverUrl: 'https://canopy.example/uploads/bog.jpg',
	coverAlt: 'A raised bog in autumn',
	tags: ['Peatlands', 'Climate'],
	authors: ['Anna Ivanova', 'Tom Reed'],
}
const timeZone = 'Europe/London'

function mail(changes: Partial<MailArticle> = {}, linkChanges: Partial<MailLinks> = {}) {
	return articleMail({
		site,
		article: { ...article, ...changes },
		links: { ...links, ...linkChanges },
		timeZone,
	})
}

describe('articleMail', () => {
	it('escapes markup in the title instead of writing it into the html', async () => {
		const title = '<script>alert(1)</script> & "quotes"'
		const rendered = await mail({ title, summary: '<img src=x onerror=alert(1)>' })
		expect(rendered.html).not.toContain('<script')
		expect(rendered.html).not.toContain('<img src=x')
		expect(rendered.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; ')
		expect(rendered.subject).toBe(title)
		expect(rendered.text).toContain(title)
	})

	it('gives the unsubscribe and preferences links in both parts', async () => {
		const { html, text } = await mail()
		for (const part of [html, text]) {
			expect(part).toContain(links.unsubscribe)
			expect(part).toContain(links.preferences)
		}
		expect(html).toContain('>Unsubscribe</a>')
		expect(html).toContain('>Change what you receive</a>')
		expect(html).toContain('You receive this because you subscribed to')
	})

	it('shows the cover only when there is one', async () => {
		const withCover = await mail()
		expect(withCover.html).toMatch(
			/<img[^>]+alt="A raised bog in autumn"[^>]+src="https:\/\/canopy.example\/uploads\/bog.jpg"/,
		)
		const without = await articleMail({
			site: { ...site, logoUrl: null },
			article: { ...article, coverUrl: null },
			links,
			timeZone,
		})
		expect(without.html).not.toContain('<img')
		expect(without.html).not.toContain('bog.jpg')
	})

	it('leaves out links and images whose URL is not http(s)', async () => {
		const rendered = await mail(
			{ url: 'javascript:alert(1)', coverUrl: 'data:image/png;base64,AAAA' },
			{ viewInBrowser: 'javascript:alert(2)' },
		)
		expect(rendered.html).not.toContain('javascript:')
		expect(rendered.html).not.toContain('data:image')
		expect(rendered.html).not.toContain('Read the article')
		expect(rendered.html).not.toContain('View in browser')
		expect(rendered.text).not.toContain('javascript:')
		// The article itself is still there, unlinked.
		expect(rendered.html).toContain('Why peatlands matter')
	})

	it('refuses to send without a working unsubscribe link', async () => {
		await expect(mail({}, { unsubscribe: 'javascript:alert(1)' })).rejects.toThrow(/unsubscribe/)
	})

	it('writes out the title, summary and article URL in the plain text', async () => {
		const { text } = await mail()
		expect(text).toContain('Why peatlands matter')
		expect(text).toContain(article.summary)
		expect(text).toContain(`Read the article ${article.url}`)
		expect(text).toContain(`View in browser ${links.viewInBrowser}`)
		expect(text).not.toContain('<')
	})

	it('dates the byline in the given time zone and names every author', async () => {
		const late = '2026-11-25T23:30:00Z'
		const london = await mail({ publishedAt: late })
		expect(london.text).toMatch(/By Anna Ivanova and Tom Reed · 25\sNovember\s2026/)
		const moscow = await articleMail({
			site,
			article: { ...article, publishedAt: late, authors: ['A', 'B', 'C'] },
			links,
			timeZone: 'Europe/Moscow',
		})
		expect(moscow.text).toMatch(/By A, B and C · 26\sNovember\s2026/)
	})

	it('keeps a Cyrillic title as written in both parts', async () => {
		const { html, text, subject } = await mail({ title: 'Торфяники России' })
		expect(html).toContain('Торфяники России')
		expect(text).toContain('Торфяники России')
		expect(subject).toBe('Торфяники России')
	})

	it('declares both colour schemes for clients with a dark mode', async () => {
		const { html } = await mail()
		expect(html).toContain('<meta name="color-scheme" content="light dark"/>')
		expect(html).toContain('<meta name="supported-color-schemes" content="light dark"/>')
		expect(html).toContain('@media (prefers-color-scheme:dark)')
	})

	it('puts a title that holds line breaks on one subject line', async () => {
		const { subject } = await mail({ title: 'Peat\r\nBcc: everyone@example.org' })
		expect(subject).toBe('Peat Bcc: everyone@example.org')
	})
})

describe('digestMail', () => {
	const many = (count: number): MailArticle[] =>
		Array.from({ length: count }, (_, index) => ({
			...article,
			title: `Article number ${index + 1}: what the rewetted bogs of the north tell us about carbon`,
			summary: `${'Peat covers three per cent of the land and stores twice the carbon of all forests. '.repeat(6)}`,
			url: `https://canopy.example/articles/article-${index + 1}`,
			coverUrl: `https://canopy.example/uploads/cover-${index + 1}.jpg`,
			authors: ['Anna Ivanova', 'Tom Reed', 'Marie Dupont'],
			tags: ['Peatlands', 'Climate', 'Russia'],
		}))

	it('lists every article title and link, with the period in subject and heading', async () => {
		const articles = many(7)
		const digest = await digestMail({
			site,
			articles,
			links,
			periodLabel: '18–25 November 2026',
			timeZone,
		})
		for (const { title, url } of articles) {
			expect(digest.html).toContain(title)
			expect(digest.html).toContain(`href="${url}"`)
			expect(digest.text).toContain(title)
			expect(digest.text).toContain(url)
		}
		expect(digest.subject).toContain('Canopy')
		expect(digest.subject).toContain('18–25 November 2026')
		expect(digest.html).toContain('18–25 November 2026</h1>')
		expect(digest.text).toContain(links.unsubscribe)
		expect(digest.text).toContain(links.preferences)
	})

	it('stays under the size at which Gmail cuts a mail, with fifty long articles', async () => {
		const digest = await digestMail({
			site,
			articles: many(50),
			links,
			periodLabel: 'November 2026',
			timeZone,
		})
		expect(digest.html).toContain('Article number 50:')
		expect(Buffer.byteLength(digest.html)).toBeLessThan(100_000)
	})

	it('keeps a Cyrillic title as written', async () => {
		const digest = await digestMail({
			site,
			articles: [{ ...article, title: 'Торфяники России' }],
			links,
			periodLabel: '18–25 November 2026',
			timeZone,
		})
		expect(digest.html).toContain('Торфяники России')
		expect(digest.text).toContain('Торфяники России')
	})

	it('refuses an empty digest', async () => {
		await expect(
			digestMail({ site, articles: [], links, periodLabel: 'November 2026', timeZone }),
		).rejects.toThrow(/at least one article/)
	})
})

describe('confirmationMail', () => {
	const confirmUrl = 'https://canopy.example/newsletter/confirm?token=c-789'

	it('links to the confirmation and says how long the link works', async () => {
		const rendered = await confirmationMail({ site, confirmUrl, validDays: 7 })
		expect(rendered.subject).toBe('Confirm your subscription to Canopy')
		expect(rendered.html).toContain(`href="${confirmUrl}"`)
		expect(rendered.html).toContain('Confirm subscription</span>')
		expect(rendered.text).toContain(confirmUrl)
		for (const part of [rendered.html, rendered.text]) {
			expect(part).toContain('7 days')
			expect(part).toContain('If it was not you, ignore this mail')
		}
	})

	it('says one day, not one days', async () => {
		const { text } = await confirmationMail({ site, confirmUrl, validDays: 1 })
		expect(text).toContain('works for 1 day.')
	})

	it('refuses a confirmation link that is not http(s)', async () => {
		await expect(
			confirmationMail({ site, confirmUrl: 'javascript:alert(1)', validDays: 7 }),
		).rejects.toThrow(/confirmation/)
	})
})

describe('mails in the site’s language', () => {
	it('writes an Arabic site’s mails in Arabic, right to left, with Arabic plurals and dates', async () => {
		const { messages } = await import('#app/locales/ar/mail.po')
		addMessages('ar', messages)
		const arabic = { ...site, language: 'ar' }
		const confirm = await confirmationMail({
			site: arabic,
			confirmUrl: 'https://canopy.example/newsletter/confirm?token=c',
			validDays: 7,
		})
		expect(confirm.subject).toBe('أكّد اشتراكك في Canopy')
		expect(confirm.html).toMatch(
			/<html[^>]* dir="rtl" lang="ar"|<html[^>]* lang="ar"[^>]* dir="rtl"/,
		)
		expect(confirm.text).toContain('يعمل الرابط لمدة 7 أيام')
		const announced = await articleMail({ site: arabic, article, links, timeZone })
		expect(announced.text).toContain('بقلم Anna Ivanova وTom Reed')
		expect(announced.text).toContain('نوفمبر')
		expect(announced.html).toContain('إلغاء الاشتراك')
	})

	it('keeps English for a site without a language', async () => {
		const confirm = await confirmationMail({
			site,
			confirmUrl: 'https://canopy.example/newsletter/confirm?token=c',
			validDays: 1,
		})
		expect(confirm.subject).toBe('Confirm your subscription to Canopy')
		expect(confirm.text).toContain('The link works for 1 day.')
	})
})
