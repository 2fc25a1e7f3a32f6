// The inbox as an editor uses it: a message sent while the inbox is open appears without a
// reload and the count in the navigation goes up; opening it shows markup as text and a reply
// link; then mark unread, archive and delete with a confirmation. Accessible, and fits 320 px.
import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import type { NewContactMessage } from '#storage/port/contact.ts'
import { expectNoAxeViolations } from './axe-check.ts'
import {
	expect,
	isSameDocument,
	markDocument,
	serveCanopy,
	test,
	waitForHydration,
} from './canopy-test.ts'
import { signedInAs } from './signed-in.ts'

const server = serveCanopy()
const email = 'noor@example.org'

signedInAs(server, { email, role: 'editor', name: 'Noor Haddad' })

/**
 * A message arriving as the contact form stores it, written from this process on the server's
 * database: the server learns of it as it does of any other process's write (another instance's).
 */
function receive(message: Partial<NewContactMessage>) {
	return server().withStorage(async (storage) => {
		const { message: stored } = await storage.messages.create(
			{
				idempotencyKey: randomUUID(),
				name: 'Ines Duarte',
				email: 'ines@coast.example',
				subject: 'Eelgrass survey',
				message: 'We counted the eelgrass beds.',
				...message,
			},
			[],
		)
		return stored
	})
}

const inboxLink = (page: Page) =>
	page.getByRole('navigation', { name: 'Editor area' }).getByRole('link', { name: /^Inbox/ })

test('a new message appears in the open inbox, and an editor reads, answers, archives and deletes it', async ({
	page,
}) => {
	await page.goto('/admin/messages')
	await waitForHydration(page)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inbox')
	await expect(inboxLink(page)).toHaveAccessibleName('Inbox')
	await markDocument(page)

	const payload = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
	await receive({
		name: 'Ana <b>Bold</b>',
		email: 'ana+marsh@example.org',
		subject: 'Tides & dunes?',
		message: `Hello team,\n\n${payload}\nThanks!`,
	})
	const list = page.getByRole('list', { name: /1 message/ })
	await expect(list.getByRole('link', { name: 'Tides & dunes?' })).toBeVisible()
	await expect(list.getByText('New, not read yet:')).toBeAttached()
	await expect(list).toContainText('Ana <b>Bold</b>')
	await expect(inboxLink(page)).toHaveAccessibleName('Inbox, 1 unread')
	await expect(inboxLink(page)).toHaveText('Inbox (1)')
	expect(await isSameDocument(page)).toBe(true)
	await expectNoAxeViolations(page)

	await list.getByRole('link', { name: 'Tides & dunes?' }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tides & dunes?')
	const text = page.locator('.message-text')
	await expect(text).toContainText(payload)
	expect(await text.locator('script, img').count()).toBe(0)
	expect(await page.evaluate(() => Reflect.get(window, '__pwned'))).toBeUndefined()
	await expect(page.getByRole('link', { name: 'Reply by email' })).toHaveAttribute(
		'href',
		'mailto:ana%2Bmarsh@example.org?subject=Re%3A%20Tides%20%26%20dunes%3F',
	)
	// Opened is read: the count in the navigation follows without a reload.
	await expect(inboxLink(page)).toHaveAccessibleName('Inbox')
	await expectNoAxeViolations(page)

	await page.getByRole('button', { name: 'Mark as unread' }).click()
	await expect(page).toHaveURL(/\/admin\/messages\?done=unread$/)
	await expect(page.getByRole('status')).toHaveText('Marked as unread.')
	await expect(page.getByText('New, not read yet:')).toBeAttached()
	await expect(inboxLink(page)).toHaveAccessibleName('Inbox, 1 unread')

	await page.getByRole('link', { name: 'Tides & dunes?' }).click()
	await page.getByRole('button', { name: 'Archive' }).click()
	await expect(page).toHaveURL(/\/admin\/messages\?done=archive$/)
	await expect(page.getByRole('status')).toHaveText('Archived. You will find it under Archived.')
	// Its only message archived: the inbox is empty, not "no messages yet".
	await expect(page.getByText('Nothing in the inbox.')).toBeVisible()

	await page.getByRole('link', { name: 'Archived' }).click()
	await expect(page.getByRole('link', { name: 'Archived' })).toHaveAttribute('aria-current', 'page')
	await page.getByRole('link', { name: 'Tides & dunes?' }).click()
	await expect(page.getByRole('link', { name: 'Back to archived messages' })).toBeVisible()
	const deleteButton = page.getByRole('button', { name: 'Delete for good' })
	await expect(deleteButton).toBeHidden()
	await page.getByText('Delete this message…').click()
	await deleteButton.click()
	await expect(page).toHaveURL(/\/admin\/messages\?box=archived&done=delete$/)
	await expect(page.getByRole('status')).toHaveText('The message was deleted.')
	await expect(page.getByText('No archived messages.')).toBeVisible()
	expect(await isSameDocument(page)).toBe(true)
})

test('the inbox searches by sender or text, and fits a 320 px screen', async ({ page }) => {
	const long = 'https://example.org/a-very-long-address-that-does-not-break-by-itself/'.repeat(3)
	const { id } = await receive({ name: 'Olu Ade', message: `Natterjack toads. ${long}` })
	await receive({ name: 'Marta Kowalska', message: 'Sand lizards.' })
	await page.setViewportSize({ width: 320, height: 720 })
	for (const path of ['/admin/messages', `/admin/messages/${id}`]) {
		await page.goto(path)
		await waitForHydration(page)
		const width = await page.evaluate(() => document.documentElement.scrollWidth)
		expect(width, `document width of ${path}`).toBeLessThanOrEqual(320)
	}
	await page.goto('/admin/messages')
	await waitForHydration(page)
	await page.getByLabel('Search by sender or text').fill('natterjack')
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(/\?q=natterjack$/)
	await expect(page.getByText('Olu Ade')).toBeVisible()
	await expect(page.getByText('Marta Kowalska')).toHaveCount(0)
	await expectNoAxeViolations(page)
})
