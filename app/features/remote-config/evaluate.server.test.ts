import { createHash, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { ConfigDocument } from '#storage/port/config.ts'
import {
	configIdFrom,
	contextFrom,
	deviceClass,
	type EvaluationContext,
	evaluate,
	evaluateParameter,
	readHeaders,
	requestLanguage,
	rolloutBucket,
	valuesTag,
} from './evaluate.server.ts'
import { inAppDefaults } from './parameters.ts'

const id = () => randomBytes(16).toString('base64url')
/**
 * `count` ids shaped like the browser's (16 bytes, base64url), the same in every run: a split
 * measured on random ids would miss ±1 % now and then by chance alone (37.5 % of 10,000 has a
 * standard deviation of 48).
 */
const fixedIds = (count: number) =>
	Array.from({ length: count }, (_, i) =>
		createHash('sha256').update(`visitor ${i}`).digest().subarray(0, 16).toString('base64url'),
	)
const at = new Date('2026-11-21T12:00:00Z')
const reader = (more: Partial<EvaluationContext> = {}): EvaluationContext => ({
	visitorId: id(),
	language: 'en',
	device: 'desktop',
	now: at,
	...more,
})

const banner = (setting: NonNullable<ConfigDocument['parameters']['banner_message']>) => ({
	parameters: { banner_message: setting },
})

describe('evaluation order', () => {
	it('is the in-app default when nothing is published or set', () => {
		expect(evaluate(undefined, reader())).toEqual(inAppDefaults)
		expect(evaluate({ parameters: {} }, reader())).toEqual(inAppDefaults)
		expect(evaluateParameter(banner({ conditions: [] }), 'banner_message', reader())).toBe('')
	})

	it('is the server default over the in-app default', () => {
		const document = banner({ serverDefault: 'Hello', conditions: [] })
		expect(evaluateParameter(document, 'banner_message', reader())).toBe('Hello')
		// Other parameters keep their in-app defaults.
		expect(evaluate(document, reader()).home_latest_count).toBe(3)
	})

	it('sends no announcement text or link to a visitor for whom it is switched off', () => {
		const document = {
			parameters: {
				banner_message: { serverDefault: 'Still a draft', conditions: [] },
				banner_link: { serverDefault: '/donate', conditions: [] },
				banner_enabled: {
					serverDefault: false,
					conditions: [{ rules: { languages: ['fr'] }, value: true }],
				},
			},
		}
		expect(evaluate(document, reader())).toMatchObject({
			banner_enabled: false,
			banner_message: '',
			banner_link: '',
		})
		expect(evaluate(document, { ...reader(), language: 'fr' })).toMatchObject({
			banner_enabled: true,
			banner_message: 'Still a draft',
			banner_link: '/donate',
		})
	})

	it('is the first matching condition, in order, over the server default', () => {
		const document = banner({
			serverDefault: 'Everyone',
			conditions: [
				{ rules: { languages: ['fr'] }, value: 'Bonjour' },
				{ rules: { devices: ['mobile'] }, value: 'Phones' },
				{ rules: { languages: ['fr'], devices: ['mobile'] }, value: 'Never reached' },
			],
		})
		const value = (more: Partial<EvaluationContext>) =>
			evaluateParameter(document, 'banner_message', reader(more))
		expect(value({ language: 'fr', device: 'mobile' })).toBe('Bonjour')
		expect(value({ language: 'de', device: 'mobile' })).toBe('Phones')
		expect(value({ language: 'de', device: 'desktop' })).toBe('Everyone')
	})

	it('requires every rule of a condition at once, and a condition without rules always matches', () => {
		const document = banner({
			conditions: [
				{ rules: { languages: ['fr'], devices: ['tablet'] }, value: 'French tablets' },
				{ rules: {}, value: 'Anyone else' },
			],
		})
		const value = (more: Partial<EvaluationContext>) =>
			evaluateParameter(document, 'banner_message', reader(more))
		expect(value({ language: 'fr', device: 'tablet' })).toBe('French tablets')
		expect(value({ language: 'fr', device: 'desktop' })).toBe('Anyone else')
	})

	it('passes over a stored value the declaration no longer accepts', () => {
		const document: ConfigDocument = {
			parameters: {
				home_latest_count: {
					serverDefault: 99,
					conditions: [
						{ rules: {}, value: 'seven' },
						{ rules: {}, value: 2.5 },
					],
				},
				articles_page_size: { serverDefault: 20, conditions: [{ rules: {}, value: 0 }] },
			},
		}
		const values = evaluate(document, reader())
		expect(values.home_latest_count).toBe(3)
		expect(values.articles_page_size).toBe(20)
	})
})

describe('conditions', () => {
	it('language: the primary subtag, any listed', () => {
		const document = banner({ conditions: [{ rules: { languages: ['fr', 'de'] }, value: 'x' }] })
		expect(evaluateParameter(document, 'banner_message', reader({ language: 'de' }))).toBe('x')
		expect(evaluateParameter(document, 'banner_message', reader({ language: 'en' }))).toBe('')
		expect(evaluateParameter(document, 'banner_message', reader({ language: null }))).toBe('')
	})

	it('device class', () => {
		const document = banner({
			conditions: [{ rules: { devices: ['mobile', 'tablet'] }, value: 'x' }],
		})
		expect(evaluateParameter(document, 'banner_message', reader({ device: 'tablet' }))).toBe('x')
		expect(evaluateParameter(document, 'banner_message', reader({ device: 'desktop' }))).toBe('')
	})

	it('date window: from inclusive, until exclusive', () => {
		const document = banner({
			conditions: [
				{ rules: { from: '2026-12-01T00:00:00Z', until: '2026-12-25T00:00:00Z' }, value: 'x' },
			],
		})
		const on = (iso: string) =>
			evaluateParameter(document, 'banner_message', reader({ now: new Date(iso) }))
		expect(on('2026-11-30T23:59:59.999Z')).toBe('')
		expect(on('2026-12-01T00:00:00Z')).toBe('x')
		expect(on('2026-12-24T23:59:59.999Z')).toBe('x')
		expect(on('2026-12-25T00:00:00Z')).toBe('')
		const openEnded = banner({
			conditions: [{ rules: { from: '2026-12-01T00:00:00Z' }, value: 'y' }],
		})
		expect(
			evaluateParameter(openEnded, 'banner_message', reader({ now: new Date('2030-01-01') })),
		).toBe('y')
	})

	it('rollout: never for a visitor without an id, always at 100 %', () => {
		const document = banner({ conditions: [{ rules: { percent: 100 }, value: 'x' }] })
		expect(evaluateParameter(document, 'banner_message', reader({ visitorId: null }))).toBe('')
		expect(evaluateParameter(document, 'banner_message', reader())).toBe('x')
	})

	it('rollout: the same visitor always gets the same answer', () => {
		const document = banner({ conditions: [{ rules: { percent: 50 }, value: 'x' }] })
		for (let i = 0; i < 50; i++) {
			const visitor = id()
			const first = evaluateParameter(document, 'banner_message', reader({ visitorId: visitor }))
			for (let j = 0; j < 3; j++)
				expect(evaluateParameter(document, 'banner_message', reader({ visitorId: visitor }))).toBe(
					first,
				)
		}
	})

	it('rollout: 10 % and 37.5 % of 10,000 visitors, each within ±1 %', () => {
		const visitors = fixedIds(10_000)
		for (const percent of [10, 37.5]) {
			const document = banner({ conditions: [{ rules: { percent }, value: 'x' }] })
			const shown = visitors.filter(
				(visitor) =>
					evaluateParameter(document, 'banner_message', reader({ visitorId: visitor })) === 'x',
			).length
			expect(
				Math.abs(shown / 100 - percent),
				`${shown} of 10,000 at ${percent} %`,
			).toBeLessThanOrEqual(1)
		}
	})

	it('rollout: each parameter picks its own visitors, and a larger percentage keeps the smaller one’s', () => {
		const visitors = fixedIds(10_000)
		const inBanner = visitors.filter((visitor) => rolloutBucket(visitor, 'banner_message') < 10)
		const inBoth = inBanner.filter((visitor) => rolloutBucket(visitor, 'home_latest_count') < 10)
		// Independent: about 10 % of the first 10 % (100 of 10,000), far from all of them.
		expect(inBoth.length).toBeGreaterThan(40)
		expect(inBoth.length).toBeLessThan(200)
		expect(inBanner.every((visitor) => rolloutBucket(visitor, 'banner_message') < 20)).toBe(true)
	})
})

describe('request context', () => {
	it('reads the device class from the client hint or the user agent', () => {
		const iphone =
			'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1'
		const pixel =
			'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
		const galaxyTab =
			'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
		const ipad =
			'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/604.1'
		const desktop =
			'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
		expect(deviceClass(iphone)).toBe('mobile')
		expect(deviceClass(pixel)).toBe('mobile')
		expect(deviceClass(galaxyTab)).toBe('tablet')
		expect(deviceClass(ipad)).toBe('tablet')
		expect(deviceClass(desktop)).toBe('desktop')
		expect(deviceClass(desktop, '?1')).toBe('mobile')
		expect(deviceClass('')).toBe('desktop')
	})

	it('reads the primary language of the first accepted one', () => {
		expect(requestLanguage('fr-CA,fr;q=0.9,en;q=0.8')).toBe('fr')
		expect(requestLanguage('EN-gb')).toBe('en')
		expect(requestLanguage('*')).toBeNull()
		expect(requestLanguage('')).toBeNull()
		expect(requestLanguage(null)).toBeNull()
	})

	it('reads the config id only from its own well-formed cookie', () => {
		const visitor = id()
		expect(configIdFrom(`theme=dark; canopy_config_id=${visitor}; other=1`)).toBe(visitor)
		expect(configIdFrom('canopy_config_id=short')).toBeNull()
		expect(configIdFrom(`not_canopy_config_id=${visitor}`)).toBeNull()
		expect(configIdFrom(undefined)).toBeNull()
		const context = contextFrom(
			readHeaders(
				new Headers({ cookie: `canopy_config_id=${visitor}`, 'accept-language': 'fr-FR' }),
			),
			at,
		)
		expect(context).toEqual({ visitorId: visitor, language: 'fr', device: 'desktop', now: at })
	})

	it('names a set of values by version and values alike', () => {
		const a = valuesTag(1, inAppDefaults)
		expect(valuesTag(1, { ...inAppDefaults })).toBe(a)
		expect(valuesTag(2, inAppDefaults)).not.toBe(a)
		expect(valuesTag(1, { ...inAppDefaults, banner_message: 'x' })).not.toBe(a)
		expect(a).toMatch(/^[\w-]{16}$/)
	})
})
