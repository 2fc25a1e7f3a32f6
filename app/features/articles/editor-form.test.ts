import { describe, expect, it } from 'vitest'
import { articleFormInput, localInputToIso, notifySwitchMarker, splitTags } from './editor-form.ts'

describe('the editor form', () => {
	it('reads a wall-clock time in the browser zone as the right instant', () => {
		// Paris in winter is UTC+1: getTimezoneOffset() is -60.
		expect(localInputToIso('2026-12-01T09:30', -60)).toBe('2026-12-01T08:30:00.000Z')
		expect(localInputToIso('2026-12-01T09:30', 300)).toBe('2026-12-01T14:30:00.000Z')
		expect(localInputToIso('2026-12-01T09:30', 0)).toBe('2026-12-01T09:30:00.000Z')
		expect(localInputToIso('tomorrow', 0)).toBeUndefined()
	})

	it('splits tags on commas and drops empty ones', () => {
		expect(splitTags(' soil, Food ,, water ')).toEqual(['soil', 'Food', 'water'])
		expect(splitTags('')).toEqual([])
		expect(splitTags('تربة، غذاء,ماء')).toEqual(['تربة', 'غذاء', 'ماء'])
		expect(splitTags('土壤，食物、水')).toEqual(['土壤', '食物', '水'])
	})

	it('turns the posted form into the editor input, marking an unreadable time', () => {
		const form = new FormData()
		for (const [name, value] of Object.entries({
			title: 'Wetlands',
			slug: '  ',
			body: 'Line one\r\nLine two',
			tags: 'water, peat',
			intent: 'schedule',
			publishAt: 'soon',
			timezoneOffset: '-60',
			version: '3',
		}))
			form.set(name, value)
		expect(articleFormInput(form)).toMatchObject({
			title: 'Wetlands',
			slug: undefined,
			body: 'Line one\nLine two',
			tags: ['water', 'peat'],
			intent: 'schedule',
			publishAt: 'invalid',
			version: '3',
		})
	})

	it('reads the notify switch: checked, unchecked (not posted), or not offered', () => {
		const form = (fields: Record<string, string>) => {
			const data = new FormData()
			for (const [name, value] of Object.entries(fields)) data.set(name, value)
			return articleFormInput(data)
		}
		expect(form({ [notifySwitchMarker]: '1', notify: 'on' }).notify).toBe(true)
		expect(form({ [notifySwitchMarker]: '1' }).notify).toBe(false)
		expect(form({ notify: 'on' }).notify).toBeUndefined()
		expect(form({}).notify).toBeUndefined()
	})
})
