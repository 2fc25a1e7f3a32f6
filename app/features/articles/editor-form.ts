// The article editor's form fields ↔ the input editor.server.ts takes. Runs in the browser (the
// schedule field's time zone) and on the server (the action).

/**
 * `<input type="datetime-local">` gives a wall-clock time with no zone; the page adds the
 * browser's offset at that time (localOffsetAt) so the server knows the instant.
 * Without it (no JavaScript) the time is read as UTC, which the form says.
 */
export function localInputToIso(local: string, offsetMinutes: number): string | undefined {
	const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim())
	if (!match) return undefined
	const [, year, month, day, hour, minute, second = 0] = match.map((part) =>
		Number(part ?? 0),
	) as number[]
	const utc = Date.UTC(year as number, (month as number) - 1, day, hour, minute, second)
	if (Number.isNaN(utc)) return undefined
	return new Date(utc + offsetMinutes * 60_000).toISOString()
}

/**
 * The browser's offset (minutes behind UTC) at a datetime-local time, which is not today's where
 * summer time starts or ends between now and then; now's where the field is empty or unreadable.
 */
export function localOffsetAt(local: string): number {
	// A date-time with no zone is read as local time (ECMA-262 Date.parse).
	const at = new Date(local)
	return (Number.isNaN(at.getTime()) ? new Date() : at).getTimezoneOffset()
}

/** An instant as the browser's wall-clock time, for a datetime-local input. */
export function isoToLocalInput(iso: string): string {
	const date = new Date(iso)
	const pad = (n: number) => String(n).padStart(2, '0')
	return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/** "soil, Food ,, water" → ["soil", "Food", "water"] (the schema lower-cases and checks them). */
export function splitTags(value: string): string[] {
	// The comma as each script writes it: Latin, Arabic (،), Chinese and Japanese (，、).
	return value
		.split(/[,،，、]/)
		.map((tag) => tag.trim())
		.filter(Boolean)
}

/** A hidden field posted beside the notify checkbox. */
export const notifySwitchMarker = 'notifySwitch'
/** A hidden field posted beside the "Email subscribers" checkbox. */
export const emailSwitchMarker = 'emailSwitch'

/** The editor form as editor.server.ts's input. */
export function articleFormInput(form: FormData): Record<string, unknown> {
	const text = (name: string) => {
		const value = form.get(name)
		return typeof value === 'string' ? value : ''
	}
	const offset = Number.parseInt(text('timezoneOffset'), 10)
	const scheduled = text('publishAt')
	return {
		title: text('title'),
		slug: text('slug').trim() || undefined,
		// Posted by the editor of a draft never published while its address field is empty or
		// left as it came: the address follows the title (editor.server.ts, updateArticle).
		slugFollowsTitle: text('slugFollowsTitle') === '1',
		// Posted by the new-article page: a save there moves on to the draft's own page.
		fromNewPage: text('fromNewPage') === '1',
		summary: text('summary'),
		body: text('body').replace(/\r\n/g, '\n'),
		tags: splitTags(text('tags')),
		authors: splitTags(text('authors')),
		// An empty field means none (the schema refuses an empty address).
		cover: text('cover').trim() || undefined,
		coverAlt: text('coverAlt').trim() || undefined,
		seoTitle: text('seoTitle'),
		seoDescription: text('seoDescription'),
		// Empty: none (the cover is shown), as an emptied field means.
		socialImage: text('socialImage').trim(),
		// Left out where the form did not offer them: the stored ones stay.
		language: form.has('language') ? text('language') : undefined,
		translationOf: form.has('translationOf') ? text('translationOf') : undefined,
		intent: text('intent'),
		publishAt: scheduled
			? (localInputToIso(scheduled, Number.isFinite(offset) ? offset : 0) ?? 'invalid')
			: undefined,
		version: text('version') || undefined,
		// The pending edits the form was opened with (their savedAt; '' for none): left out by a
		// form that does not send it, which then replaces whatever is pending.
		pendingBasis: form.has('pendingBasis') ? text('pendingBasis') : undefined,
		// An unchecked box is not posted at all: the marker says the form offered the switch, so
		// its absence means off. Without the marker (an announced article) the choice stays.
		notify: text(notifySwitchMarker) ? form.get('notify') === 'on' : undefined,
		email: text(emailSwitchMarker) ? form.get('email') === 'on' : undefined,
	}
}
