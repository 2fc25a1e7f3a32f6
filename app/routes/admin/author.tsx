import { msg } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { data, Form, redirect, useNavigation } from 'react-router'
import { ActionNotice } from '#app/components/ui/action-notice.tsx'
import { Field, TextAreaField } from '#app/components/ui/field.tsx'
import { useFormLeaveGuard } from '#app/components/ui/leave-guard.tsx'
import { editorContext } from '#app/features/auth/session.server.ts'
import { publicPath } from '#app/features/pages/page-addresses.ts'
import { authorEditSchema, deleteSchema, mergeSchema } from '#app/features/tags/term.schema.ts'
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
import type { Route } from './+types/author'

// One author profile. Editors change their own; admins any, and which account it belongs to,
// and merge two profiles of one person (a typo on an old article) or delete a guest's.

export function meta({ loaderData, matches }: Route.MetaArgs) {
	const i18n = rootI18n(matches)
	const name = loaderData?.author.name
	return [
		{
			title: name
				? i18n._(msg`${name} · Authors · Canopy`)
				: i18n._(msg`Author · Authors · Canopy`),
		},
		{ name: 'robots', content: 'noindex' },
	]
}

async function profileFor(context: Route.LoaderArgs['context'], id: number) {
	const { storage } = context.get(servicesContext)
	const editor = context.get(editorContext)
	const author = await storage.authors.findById(id)
	if (!author) throw data(null, { status: 404 })
	const mayEdit = editor.role === 'admin' || author.userId === editor.id
	return { storage, editor, author, mayEdit }
}

// The arrival's notice leaving the address reads nothing again (arrival-notice.ts).
export const shouldRevalidate = keepDataWhenNoticeLeaves

export async function loader({ context, params }: Route.LoaderArgs) {
	const { storage, editor, author, mayEdit } = await profileFor(context, Number(params.id))
	const admin = editor.role === 'admin'
	const [accounts, others] = admin
		? await Promise.all([storage.accounts.list(), storage.authors.list()])
		: [[], []]
	return {
		author,
		mayEdit,
		admin,
		accounts: accounts.map(({ id, name, email }) => ({ id, name, email })),
		others: others.filter((other) => other.id !== author.id).map(({ id, name }) => ({ id, name })),
	}
}

export async function action({ context, params, request }: Route.ActionArgs) {
	const { storage, editor, author, mayEdit } = await profileFor(context, Number(params.id))
	if (!mayEdit) throw data(null, { status: 403 })
	const admin = editor.role === 'admin'
	const form = Object.fromEntries(await readForm(request))
	const i18n = await requestI18n(request, context)
	if (admin && form.intent === 'delete' && deleteSchema.safeParse(form).success) {
		await storage.authors.delete(author.id)
		return redirect(`/admin/authors?${new URLSearchParams({ deleted: author.name })}`)
	}
	if (admin && form.intent === 'merge') {
		const parsed = mergeSchema.safeParse(form)
		if (!parsed.success) return data({ errors: fieldErrors(parsed.error), values: form }, 400)
		const merged = await storage.authors.merge(author.id, parsed.data.into)
		if (!merged.ok)
			return data(
				{ errors: { into: [i18n._(msg`That profile is gone. Choose another.`)] } as FieldErrors },
				404,
			)
		return redirect(
			`/admin/authors/${merged.value.id}?${new URLSearchParams({ merged: author.name })}`,
		)
	}
	const parsed = authorEditSchema.safeParse(form)
	if (!parsed.success) return data({ errors: fieldErrors(parsed.error), values: form }, 400)
	const { intent: _, userId, ...edit } = parsed.data
	const saved = await storage.authors.update(author.id, {
		...edit,
		// Only an admin says whose profile it is.
		userId: admin && userId !== undefined ? userId || null : author.userId,
	})
	if (saved.ok) {
		const path = publicPath('author', saved.value.slug)
		return { done: i18n._(msg`Saved. The profile is at ${path}.`) }
	}
	const problem: FieldErrors | null =
		saved.reason === 'slug-taken'
			? { slug: [i18n._(msg`Another author has this address. Choose another.`)] }
			: saved.reason === 'account-taken'
				? {
						userId: [i18n._(msg`That team member has a profile already. Merge the two instead.`)],
					}
				: null
	if (!problem) throw data(null, { status: 404 })
	return data({ errors: problem, values: form }, 400)
}

export default function AuthorEdit({ loaderData, actionData }: Route.ComponentProps) {
	const { author, mayEdit, admin, accounts, others } = loaderData
	const busy = useNavigation().state === 'submitting'
	const { errors, value, done, refusal } = actionAnswer(actionData)
	const guard = useFormLeaveGuard(refusal('save'))
	const merged = useArrivalNotice('merged')
	const path = publicPath('author', author.slug)
	const { t } = useLingui()
	const name = author.name
	const articles = author.articles
	return (
		<>
			<p className="breadcrumb">
				<a href="/admin/authors">
					<Trans>Authors</Trans>
				</a>
			</p>
			<h1>{author.name}</h1>
			<p>
				<a href={path}>{path}</a> ·{' '}
				<Plural value={articles} one="# published article" other="# published articles" />
			</p>
			{done ? (
				<ActionNotice answer={actionData}>{done}</ActionNotice>
			) : merged ? (
				<p role="status" className="notice">
					<Trans>
						The profile of {merged} is merged into this one: their articles now name it, and their
						old address leads here.
					</Trans>
				</p>
			) : null}
			{mayEdit ? null : (
				<p>
					<Trans>Only an admin or the author can change this profile.</Trans>
				</p>
			)}
			<Form method="post" className="form" {...guard.form} key={author.updatedAt}>
				<fieldset disabled={!mayEdit} className="form-fields">
					<TermErrorSummary
						errors={errors}
						labels={{
							bio: t`Bio`,
							avatarUrl: t`Photo`,
							website: t`Website`,
							userId: t`Team member`,
						}}
						title={t`The profile was not saved`}
					/>
					<NameAndAddress
						name={author.name}
						slug={author.slug}
						maxName={100}
						errors={errors}
						value={value}
					/>
					<TextAreaField
						name="bio"
						label={t`Bio`}
						hint={t`A few sentences for the author’s page.`}
						defaultValue={value('bio', author.bio)}
						error={errors.bio}
						rows={4}
						maxLength={1000}
					/>
					<Field
						name="avatarUrl"
						label={t`Photo`}
						hint={t`Optional: an image from the media library (/media/…) or an https address.`}
						defaultValue={value('avatarUrl', author.avatarUrl ?? '')}
						error={errors.avatarUrl}
					/>
					<Field
						name="website"
						label={t`Website`}
						hint={t`Optional, e.g. https://example.org.`}
						type="url"
						defaultValue={value('website', author.website ?? '')}
						error={errors.website}
					/>
					{admin ? (
						<div className="field">
							<label htmlFor="userId">
								<Trans>Team member</Trans>
							</label>
							<select id="userId" name="userId" defaultValue={author.userId ?? ''}>
								<option value="">{t`None (a guest writer)`}</option>
								{accounts.map((account) => (
									<option key={account.id} value={account.id}>
										{account.name} ({account.email})
									</option>
								))}
							</select>
							{errors.userId ? <p className="field-error">{errors.userId.join(' ')}</p> : null}
						</div>
					) : null}
					<button type="submit" name="intent" value="save" disabled={busy}>
						<Trans>Save the profile</Trans>
					</button>
				</fieldset>
			</Form>
			{admin ? (
				<MergeForm
					kind="profile"
					name={author.name}
					others={others}
					error={errors.into}
					hint={t`For one person with two profiles: the articles move, the address follows.`}
					busy={busy}
				/>
			) : null}
			{admin ? (
				<DeleteForm
					question={t`Delete the profile of ${name}? Their articles stay.`}
					hint={t`Their articles stay, without this name on them.`}
					label={t`Delete the profile`}
					busy={busy}
				/>
			) : null}
			{guard.dialog}
		</>
	)
}
