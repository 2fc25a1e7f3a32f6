// Dates are formatted in UTC so the server's HTML and the browser's hydration agree.
const longDate = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' })

export function formatDate(iso: string): string {
	return longDate.format(new Date(iso))
}
