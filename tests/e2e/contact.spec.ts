// The contact form as visitors use it: with JavaScript (checks as fields are left, no reload),
// without it (the page comes back with the messages and the text), and by keyboard on a phone.
import type { Locator, Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe-check.ts'
import {
	expect,
	isSameDocument,
	markDocument,
	serveCanopy,
	test,
	waitForHydration,
} from './canopy-test.ts'
import { contactFormMinSeconds } from './server.ts'

serveCanopy()

// The server takes a form posted sooner than this after it was rendered for a robot's.
const minimumFillMs = contactFormMinSeconds * 1000

/** Opens /contact and returns a function that waits until the form may be sent. */
async function openForm(page: Page) {
	const openedAt = Date.now()
	const response = await page.goto('/contact')
	expect(response?.status()).toBe(200)
	return async () => {
		const left = openedAt + minimumFillMs + 200 - Date.now()
		if (left > 0) await page.waitForTimeout(left)
	}
}

function form(page: Page) {
	const main = page.locator('main')
	return {
		name: main.getByLabel('Your name'),
		email: main.getByLabel('Your email address'),
		subject: main.getByLabel('Subject (optional)'),
		message: main.getByLabel('Your message'),
		send: main.getByRole('button', { name: /Send message|Sending/ }),
		confirmation: main.getByRole('status').filter({ hasText: 'Thank you' }),
	}
}

async function expectError(field: Locator, text: string) {
	await expect(field).toHaveAttribute('aria-invalid', 'true')
	await expect(field).toHaveAccessibleDescription(new RegExp(text.replace(/[.()]/g, '\\$&')))
}

test('with JavaScript: errors as fields are left, a busy button, then a confirmation without a reload', async ({
	page,
}) => {
	const ready = await openForm(page)
	await waitForHydration(page)
	await markDocument(page)
	const fields = form(page)
	await expectNoAxeViolations(page, 'empty form')

	// Tabbing through an untouched field is not a mistake.
	await fields.name.focus()
	await page.keyboard.press('Tab')
	await expect(fields.name).not.toHaveAttribute('aria-invalid')

	await fields.name.fill('Ana Costa')
	await fields.email.fill('ana@')
	await fields.email.blur()
	await expectError(fields.email, 'Enter an email address like name@example.org, so we can reply.')
	await fields.message.fill('Too short')
	await fields.message.blur()
	await expectError(fields.message, 'Write at least 10 characters, so we understand what you need.')
	await expectNoAxeViolations(page, 'with errors')

	// Each message goes as soon as the value is right.
	await fields.email.fill('ana@example.org')
	await expect(fields.email).not.toHaveAttribute('aria-invalid')
	await expect(fields.email).toHaveAccessibleDescription(
		'We reply to this address and use it for nothing else.',
	)
	await fields.message.fill('Could your group speak at our town meeting about the meadow?')
	await expect(fields.message).not.toHaveAttribute('aria-invalid')

	// Held back a moment on its way, so the busy button can be seen.
	let release: () => void = () => {}
	const held = new Promise<void>((resolve) => {
		release = resolve
	})
	let posts = 0
	await page.route(/\/contact(\.data)?(\?.*)?$/, async (route) => {
		if (route.request().method() === 'POST') {
			posts++
			await held
		}
		await route.continue()
	})
	await ready()
	await fields.send.click()
	await expect(fields.send).toHaveText('Sending…')
	await expect(fields.send).toHaveAttribute('aria-disabled', 'true')
	// A second click while sending sends nothing more (force: Playwright waits for an
	// aria-disabled button to be enabled; a person can still click it).
	await fields.send.click({ force: true })
	release()

	await expect(fields.confirmation).toBeVisible()
	await expect(fields.confirmation).toContainText(
		'Thank you, Ana Costa. We have your message and will reply to ana@example.org.',
	)
	await expect(fields.confirmation).toBeFocused()
	expect(await isSameDocument(page)).toBe(true)
	expect(posts).toBe(1)
	await expectNoAxeViolations(page, 'sent')
})

test('a click on Send straight from the field being typed in is not lost: it checks every field', async ({
	page,
}) => {
	await openForm(page)
	await waitForHydration(page)
	const fields = form(page)
	await fields.message.fill('Too short')
	// The press leaves the message field. Its message, shown then, moved the button from under
	// the pointer, and the click never happened.
	await fields.send.click()
	await expectError(fields.name, 'Enter your name, so we know who is writing.')
	await expectError(fields.message, 'Write at least 10 characters, so we understand what you need.')
	await expect(fields.name).toBeFocused()
})

test.describe('without JavaScript', () => {
	test.use({ javaScriptEnabled: false, expectedConsoleError: /status of 400/ })

	test('the page comes back with the messages and what was typed, then confirms', async ({
		page,
	}) => {
		const ready = await openForm(page)
		const fields = form(page)
		await fields.name.fill('Ben Okafor')
		await fields.email.fill('ben@example')
		await fields.subject.fill('Tree planting')
		await fields.message.fill('Hello')
		const refused = page.waitForResponse((response) => response.request().method() === 'POST')
		await fields.send.click()
		expect((await refused).status()).toBe(400)

		await expectError(
			fields.email,
			'Enter an email address like name@example.org, so we can reply.',
		)
		await expectError(
			fields.message,
			'Write at least 10 characters, so we understand what you need.',
		)
		await expect(fields.name).toHaveValue('Ben Okafor')
		await expect(fields.email).toHaveValue('ben@example')
		await expect(fields.subject).toHaveValue('Tree planting')
		await expect(fields.message).toHaveValue('Hello')
		await expect(fields.name).not.toHaveAttribute('aria-invalid')

		await fields.email.fill('ben@example.org')
		await fields.message.fill('Hello, can we join the tree planting on Saturday?')
		await ready()
		await fields.send.click()
		await expect(fields.confirmation).toContainText(
			'Thank you, Ben Okafor. We have your message and will reply to ben@example.org.',
		)
		await expect(page.locator('main form')).toHaveCount(0)
	})
})

test.describe('at 320 px with the keyboard only', () => {
	test.use({ viewport: { width: 320, height: 720 } })

	test('Tab goes through the form in order with a visible outline, and Enter sends it', async ({
		page,
	}) => {
		const ready = await openForm(page)
		await waitForHydration(page)
		const fields = form(page)
		// The skip link, then into the page.
		await page.keyboard.press('Tab')
		await expect(page.locator('a.skip-link')).toBeFocused()
		await page.keyboard.press('Enter')
		await expect(page.locator('main#main')).toBeFocused()

		const typed: [Locator, string][] = [
			[fields.name, 'Chen Wei'],
			[fields.email, 'chen@example.org'],
			[fields.subject, ''],
			[fields.message, 'Thank you for the article on soil.\nMay we reprint it?'],
		]
		for (const [field, text] of typed) {
			await page.keyboard.press('Tab')
			await expect(field).toBeFocused()
			await expect(field).toBeInViewport()
			const outline = await field.evaluate((element) => {
				const css = getComputedStyle(element)
				return { style: css.outlineStyle, width: Number.parseFloat(css.outlineWidth) }
			})
			expect(outline.style).not.toBe('none')
			expect(outline.width).toBeGreaterThan(0)
			if (text) await page.keyboard.type(text)
		}
		// Past the hidden honeypot, straight to the button.
		await page.keyboard.press('Tab')
		await expect(fields.send).toBeFocused()
		await expect(page.locator('#website')).toHaveValue('')
		const width = await page.evaluate(() => document.documentElement.scrollWidth)
		expect(width).toBeLessThanOrEqual(320)

		await ready()
		await page.keyboard.press('Enter')
		await expect(fields.confirmation).toBeFocused()
		await expect(fields.confirmation).toContainText('Thank you, Chen Wei.')
	})
})
