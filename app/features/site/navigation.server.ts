// Changing the menus from the staff area, one step at a time (add, change, move, remove): each
// step is a plain form post, so it works from the keyboard and without JavaScript.
import { z } from 'zod'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import type { Storage } from '#storage/port/storage.ts'
import { menuLinkSchema, navigationLimits } from './navigation.schema.ts'
import type { Navigation } from './navigation.ts'
import { getSite, saveNavigation } from './site-settings.server.ts'

const menu = z.enum(['header', 'footer'], { error: 'Choose the header or the footer menu.' })
const index = z.coerce.number().int().min(0)

const stepSchema = z.discriminatedUnion('intent', [
	z.object({ intent: z.literal('add'), menu, label: z.string(), href: z.string() }),
	z.object({ intent: z.literal('change'), menu, index, label: z.string(), href: z.string() }),
	z.object({ intent: z.enum(['up', 'down', 'remove']), menu, index }),
	z.object({ intent: z.literal('reset') }),
])

export type NavigationStep =
	| { ok: true; navigation: Navigation; done: string }
	| { ok: false; errors: FieldErrors }

/** Applies one step to the stored menus and saves them; what was wrong, in words, otherwise. */
export async function changeNavigation(
	storage: Storage,
	form: Record<string, unknown>,
	defaults: Navigation,
): Promise<NavigationStep> {
	const step = stepSchema.safeParse(form)
	if (!step.success) return { ok: false, errors: fieldErrors(step.error) }
	const { navigation: current } = await getSite(storage)
	if (step.data.intent === 'reset') {
		await saveNavigation(storage, defaults)
		return { ok: true, navigation: defaults, done: 'The menus are back to the default.' }
	}
	const input = step.data
	const links = [...current[input.menu]]
	const where = input.menu === 'header' ? 'header' : 'footer'
	if (input.intent === 'add' || input.intent === 'change') {
		const link = menuLinkSchema.safeParse({ label: input.label, href: input.href })
		if (!link.success) return { ok: false, errors: fieldErrors(link.error) }
		if (input.intent === 'add') {
			if (links.length >= navigationLimits[input.menu])
				return {
					ok: false,
					errors: {
						form: [
							`The ${where} holds at most ${navigationLimits[input.menu]} links. Remove one first.`,
						],
					},
				}
			links.push(link.data)
		} else if (links[input.index]) links[input.index] = link.data
		else return { ok: false, errors: { form: ['That link was removed meanwhile.'] } }
	} else {
		const link = links[input.index]
		if (!link) return { ok: false, errors: { form: ['That link was removed meanwhile.'] } }
		links.splice(input.index, 1)
		if (input.intent === 'up') links.splice(Math.max(0, input.index - 1), 0, link)
		if (input.intent === 'down') links.splice(Math.min(links.length, input.index + 1), 0, link)
	}
	const navigation = { ...current, [input.menu]: links }
	await saveNavigation(storage, navigation)
	const done = {
		add: 'Link added.',
		change: 'Link saved.',
		up: 'Link moved up.',
		down: 'Link moved down.',
		remove: 'Link removed.',
	}[input.intent]
	return { ok: true, navigation, done: `${done} Readers see the ${where} as it is now.` }
}
