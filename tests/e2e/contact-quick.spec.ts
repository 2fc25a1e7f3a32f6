// A person who sends the contact form within its first seconds (autofill, a paste) is not taken for
// a robot: the page's script holds the message back until the form is old enough for the
// server's check (CONTACT_FORM_MIN_SECONDS, decision 007), instead of having it dropped behind a
// "Thank you" that promises a reply. This server waits 4 s, longer than filling the form takes here.
import { expect, serveCanopy, test, waitForHydration } from './canopy-test.ts'

const minimumSeconds = 4
const server = serveCanopy({ env: () => ({ CONTACT_FORM_MIN_SECONDS: String(minimumSeconds) }) })

test('a message sent within the first seconds waits, then is stored and confirmed', async ({
	page,
}) => {
	const openedAt = Date.now()
	await page.goto('/contact')
	await waitForHydration(page)
	const main = page.locator('main')
	await main.getByLabel('Your name').fill('Jo Quick')
	await main.getByLabel('Your email address').fill('jo.quick@example.org')
	await main.getByLabel('Your message').fill('Autofilled and pasted: may we reprint your article?')
	const send = main.getByRole('button', { name: /Send message|Sending/ })
	await send.click()
	const clickedAt = Date.now()
	// The test is only worth anything if the click came before the server's minimum.
	expect(clickedAt - openedAt).toBeLessThan(minimumSeconds * 1000 - 500)
	await expect(send).toHaveText('Sending…')

	const confirmation = main.getByRole('status').filter({ hasText: 'Thank you' })
	await expect(confirmation).toContainText('Thank you, Jo Quick.', { timeout: 10_000 })
	// Not a robot's pretend answer: the message is in the inbox.
	const stored = await server().withStorage(
		async (storage) => (await storage.messages.list({ box: 'inbox', limit: 10, offset: 0 })).items,
	)
	expect(stored.map((message) => message.email)).toEqual(['jo.quick@example.org'])
})
