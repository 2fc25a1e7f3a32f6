// The parameters editors can change on the live site (/admin/config), declared here with their
// type, the value the code uses when nothing is set (the in-app default) and what each changes.
// See docs/decisions/013-remote-config.md. Pages import this file's types only: its schemas are
// for the server and the editor.

import * as z from 'zod/mini'
import type { DeviceClass } from '#storage/port/analytics.ts'
import { inAppDefaults } from './in-app-defaults.ts'

if (typeof document !== 'undefined') z.config({ jitless: true })

export type ParameterType = 'string' | 'number' | 'boolean' | 'json'

export interface ParameterDeclaration<Value> {
	type: ParameterType
	defaultValue: Value
	/** For editors: what the parameter changes on the site. */
	description: string
	/** What a value must be; a stored value that no longer passes is never used. */
	schema: z.ZodMiniType<Value>
}

const declare = <Value>(declaration: ParameterDeclaration<Value>) => declaration

const wholeNumber = (min: number, max: number) =>
	z
		.number()
		.check(
			z.int({ error: 'Must be a whole number.' }),
			z.gte(min, { error: `Must be ${min} or more.` }),
			z.lte(max, { error: `Must be ${max} or less.` }),
		)

export const bannerMaxLength = 280

export const parameters = {
	banner_message: declare<string>({
		type: 'string',
		defaultValue: inAppDefaults.banner_message,
		description:
			'A message in a banner at the top of every public page, which readers can dismiss. Empty: no banner.',
		schema: z.string().check(
			z.maxLength(bannerMaxLength, {
				error: `At most ${bannerMaxLength} characters: a banner is read at a glance.`,
			}),
		),
	}),
	banner_link: declare<string>({
		type: 'string',
		defaultValue: inAppDefaults.banner_link,
		description:
			'Where the announcement leads when a reader follows it: an address on this site (/donate) or elsewhere (https://…). Empty: the announcement is plain text.',
		schema: z.string().check(
			z.maxLength(500, { error: 'At most 500 characters.' }),
			z.refine((value) => value === '' || /^(\/(?![/\\])|https?:\/\/)\S+$/.test(value), {
				error: 'Give an address on this site, such as /donate, or one starting with https://.',
			}),
		),
	}),
	banner_enabled: declare<boolean>({
		type: 'boolean',
		defaultValue: inAppDefaults.banner_enabled,
		description:
			'Whether readers see the announcement (with conditions: which readers). Off keeps its text for later.',
		schema: z.boolean(),
	}),
	home_latest_count: declare<number>({
		type: 'number',
		defaultValue: inAppDefaults.home_latest_count,
		description: 'How many of the latest articles the home screen lists (0 to 12).',
		schema: wholeNumber(0, 12),
	}),
	push_prompt_enabled: declare<boolean>({
		type: 'boolean',
		defaultValue: inAppDefaults.push_prompt_enabled,
		description:
			'Whether “Notify me of new articles” is offered on the articles list and article pages. Off: readers already subscribed keep their notices.',
		schema: z.boolean(),
	}),
	contact_form_enabled: declare<boolean>({
		type: 'boolean',
		defaultValue: inAppDefaults.contact_form_enabled,
		description:
			'Whether /contact shows the contact form. Off: it shows the postal and email address instead, and new messages are refused.',
		schema: z.boolean(),
	}),
	articles_page_size: declare<number>({
		type: 'number',
		defaultValue: inAppDefaults.articles_page_size,
		description: 'How many articles each page of /articles lists (1 to 50).',
		schema: wholeNumber(1, 50),
	}),
} as const

export type Parameters = typeof parameters
export type ParameterKey = keyof Parameters
export type ConfigValues = {
	[Key in ParameterKey]: Parameters[Key]['defaultValue']
}

export const parameterKeys = Object.keys(parameters) as ParameterKey[]

/** Declared in in-app-defaults.ts, which pages read without this file's schemas. */
export { inAppDefaults }

export const deviceClasses: readonly DeviceClass[] = ['mobile', 'tablet', 'desktop']

/** What the server evaluated for one visitor: the version it came from (0: none published). */
export interface EvaluatedConfig {
	version: number
	values: ConfigValues
}
