import { msg } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { data, Form, redirect, useNavigation } from 'react-router'
import { ActionNotice } from '#app/components/ui/action-notice.tsx'
import { Field, TextAreaField } from '#app/components/ui/field.tsx'
import { useFormLeaveGuard } from '#app/components/ui/leave-guard.tsx'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { deleteSchema, mergeSchema, tagEditSchema } from '#app/features/tags/term.schema.ts'
import {
	DeleteForm,
	MergeForm,
	NameAndAddress,
	TermErrorSummary,
} from '#app/features/tags/term-admin-forms.tsx'
import { actionAnswer } from '#app/lib/action-answer.ts'
import { keepDataWhenNoticeLeaves, useArrivalNotice } from '#app/lib/arrival-notice.ts'
import { servicesContext } from '#app/lib/context.server.ts'
import { type FieldErrors, fieldErrors } from '#app/lib/field-errors.ts'
import { readForm } from '#app/lib/form.server.ts'
import { requestI18n } from '#app/lib/i18n.server.ts'
import { rootI18n } from '#app/lib/root-data.ts'
import type { Route } from './+types/tag'

// One tag: its name, address, description and cover; merging it into another; deleting it.
// A new address keeps the old one working (301), as merging does.

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	const name = loaderData?.tag.name
	return [
		{
			title: name ? i18n._(msg`${name} · Tags · Canopy`) : i18n._(msg`Tag · Tags · Canopy`),
		},
		{ name: 'robots', content: 'noindex' },
	]
}

// The arrival's notice leaving the address reads nothing again (arrival-notice.ts).
export const shouldRevalidate = keepDataWhenNoticeLeaves

export async function loader({ context, params }: Route.LoaderArgs) {
	const { storage } = context.get(servicesContext)
	const tag = await storage.tags.findById(Number(params.id))
	if (!tag) throw data(null, { status: 404 })
	const others = (await storage.tags.list()).filter((other) => other.id !== tag.id)
	return { tag, others: others.map(({ id, name }) => ({ id, name })) }
}

export async function action({ context, params, request }: Route.ActionArgs) {
	const { storage } = context.get(servicesContext)
	const id = Number(params.id)
	const form = Object.fromEntries(await readForm(request))
	const i18n = await requestI18n(request, context)
	// Its name, for the notice on the page the browser goes to once it is deleted or merged.
	const name = (await storage.tags.findById(id))?.name ?? ''
	if (form.intent === 'delete' && deleteSchema.safeParse(form).success) {
		await storage.tags.delete(id)
		return redirect(`/admin/tags?${new URLSearchParams({ deleted: name })}`)
	}
	if (form.intent === 'merge') {
		const parsed = mergeSchema.safeParse(form)
		if (!parsed.success) return data({ errors: fieldErrors(parsed.error), values: form }, 400)
		const merged = await storage.tags.merge(id, parsed.data.into)
		if (!merged.ok)
			return data(
				{ errors: { into: [i18n._(msg`That tag is gone. Choose another.`)] } as FieldErrors },
				404,
			)
		return redirect(`/admin/tags/${merged.value.id}?${new URLSearchParams({ merged: name })}`)
	}
	const parsed = tagEditSchema.safeParse(form)
	if (!parsed.success) return data({ errors: fieldErrors(parsed.error), values: form }, 400)
	const { intent: _, ...edit } = parsed.data
	// An article's Tags field finds a tag by its name: two of one name, and one could never be
	// chosen. (Two authors may share a name: people do.)
	const wanted = edit.name.trim().toLocaleLowerCase()
	const namesake = (await storage.tags.list()).find(
		(other) => other.id !== id && other.name.trim().toLocaleLowerCase() === wanted,
	)
	if (namesake)
		return data(
			{
				errors: {
					name: [i18n._(msg`Another tag has this name. Merge into it instead, or choose another.`)],
				} as FieldErrors,
				values: form,
			},
			400,
		)
	const saved = await storage.tags.update(id, { ...edit, coverImageAlt: edit.coverImageAlt })
	if (saved.ok) {
		const path = publicPath('tag', saved.value.slug)
		return { done: i18n._(msg`Saved. The tag’s page is ${path}.`) }
	}
	if (saved.reason === 'slug-taken')
		return data(
			{
				errors: {
					slug: [
						i18n._(msg`Another tag has this address. Merge into it instead, or choose another.`),
					],
				},
				values: form,
			},
			400,
		)
	throw data(null, { status: 404 })
}

export default function TagEdit({ loaderData, actionData }: Route.ComponentProps) {
	const { tag, others } = loaderData
	const busy = useNavigation().state === 'submitting'
	const { errors, value, done, refusal } = actionAnswer(actionData)
	const guard = useFormLeaveGuard(refusal('save'))
	const merged = useArrivalNotice('merged')
	const { t } = useLingui()
	const name = tag.name
	const articles = tag.articles
	return (
		<>
			<p className="breadcrumb">
				<a href="/admin/tags">
					<Trans>Tags</Trans>
				</a>
			</p>
			<h1>{tag.name}</h1>
			<p>
				<a href={publicPath('tag', tag.slug)}>{publicPath('tag', tag.slug)}</a> ·{' '}
				<Plural value={articles} one="# published article" other="# published articles" />
			</p>
			{done ? (
				<ActionNotice answer={actionData}>{done}</ActionNotice>
			) : merged ? (
				<p role="status" className="notice">
					<Trans>
						“{merged}” is merged into this tag: its articles show this one, and its address leads
						here.
					</Trans>
				</p>
			) : null}
			<Form method="post" className="form" {...guard.form} key={tag.updatedAt}>
				<TermErrorSummary
					errors={errors}
					labels={{
						description: t`Description`,
						coverImageUrl: t`Cover image`,
						coverImageAlt: t`Cover image description`,
					}}
					title={t`The tag was not saved`}
				/>
				<NameAndAddress
					name={tag.name}
					slug={tag.slug}
					maxName={40}
					errors={errors}
					value={value}
				/>
				<TextAreaField
					name="description"
					label={t`Description`}
					hint={t`Shown at the top of the tag’s page and in search results.`}
					defaultValue={value('description', tag.description)}
					error={errors.description}
					rows={3}
					maxLength={500}
				/>
				<Field
					name="coverImageUrl"
					label={t`Cover image`}
					hint={t`Optional: an image from the media library (/media/…) or an https address.`}
					defaultValue={value('coverImageUrl', tag.coverImageUrl ?? '')}
					error={errors.coverImageUrl}
				/>
				<Field
					name="coverImageAlt"
					label={t`Cover image description`}
					hint={t`Required with a cover: what it shows, for people who cannot see it.`}
					defaultValue={value('coverImageAlt', tag.coverImageAlt ?? '')}
					error={errors.coverImageAlt}
					maxLength={300}
				/>
				<button type="submit" name="intent" value="save" disabled={busy}>
					<Trans>Save the tag</Trans>
				</button>
			</Form>
			<MergeForm
				kind="tag"
				name={tag.name}
				others={others}
				error={errors.into}
				hint={t`Its articles get the other tag instead, and its address sends readers there.`}
				busy={busy}
			/>
			<DeleteForm
				question={t`Delete the tag “${name}”? Its articles stay, without it.`}
				hint={t`Its articles stay; they just no longer show this tag.`}
				label={t`Delete the tag`}
				busy={busy}
			/>
			{guard.dialog}
		</>
	)
}
