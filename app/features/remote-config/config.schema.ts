// What a configuration document must be before it is published: every value passes its
// parameter's declaration, every condition's rules are well formed, no unknown parameter. Issue
// paths name the field (parameters.banner_message.conditions.0.value), so the editor's form can
// show each message beside its control. See docs/decisions/013-remote-config.md.
import * as z from 'zod/mini'
import type { DeviceClass } from '#storage/port/analytics.ts'
import type { ConfigDocument } from '#storage/port/config.ts'
import { deviceClasses, type ParameterKey, parameterKeys, parameters } from './parameters.ts'

const hasDuplicates = (values: readonly string[]) => new Set(values).size !== values.length

const percent = z.number({ error: 'Enter a percentage, such as 10 or 12.5.' }).check(
	z.gt(0, { error: 'Must be more than 0 %.' }),
	z.lte(100, { error: 'Must be 100 % or less.' }),
	z.refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, {
		error: 'At most two decimals, such as 12.5 or 0.25.',
	}),
)

const languages = z
	.array(
		z.string().check(
			z.regex(/^[a-z]{2,3}$/, {
				error: 'Use language codes of 2 or 3 lower-case letters, such as fr or pt.',
			}),
		),
	)
	.check(
		z.minLength(1, { error: 'Name at least one language, or leave languages out.' }),
		z.refine((values) => !hasDuplicates(values), { error: 'Name each language once.' }),
	)

const devices = z.array(z.enum(deviceClasses as [DeviceClass, ...DeviceClass[]])).check(
	z.minLength(1, { error: 'Choose at least one device, or leave devices out.' }),
	z.refine((values) => !hasDuplicates(values), { error: 'Name each device once.' }),
)

const instant = z.iso.datetime({
	offset: true,
	error: 'Must be a date and time, such as 2026-05-01T09:00:00Z.',
})

export const conditionRulesSchema = z
	.strictObject(
		{
			percent: z.optional(percent),
			languages: z.optional(languages),
			devices: z.optional(devices),
			from: z.optional(instant),
			until: z.optional(instant),
		},
		{ error: 'Rules may hold percent, languages, devices, from and until only.' },
	)
	.check(
		z.superRefine((rules, context) => {
			if (rules.from && rules.until && Date.parse(rules.from) >= Date.parse(rules.until)) {
				context.issues.push({
					code: 'custom',
					input: rules.until,
					path: ['until'],
					message: 'Must be after the start ("from").',
				})
			}
		}),
	)

function settingSchema(key: ParameterKey) {
	const value = parameters[key].schema as z.ZodMiniType<unknown>
	return z.strictObject({
		serverDefault: z.optional(value),
		conditions: z.array(z.strictObject({ rules: conditionRulesSchema, value })),
	})
}

export const configDocumentSchema = z.strictObject({
	parameters: z.strictObject(
		Object.fromEntries(parameterKeys.map((key) => [key, z.optional(settingSchema(key))])),
		{
			error: (issue) =>
				issue.code === 'unrecognized_keys'
					? `No parameter is called ${issue.keys.join(', ')}: it may have been removed from the code.`
					: undefined,
		},
	),
})

/** The document, checked; or the issues, each at the path of the field it is about. */
export function parseConfigDocument(input: unknown) {
	const parsed = configDocumentSchema.safeParse(input)
	return parsed.success
		? { success: true as const, data: parsed.data as ConfigDocument }
		: { success: false as const, error: parsed.error }
}
