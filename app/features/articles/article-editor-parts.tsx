// Pieces of the article editor that stand on their own: the notice when someone else saved
// first, the schedule fields, and the question before leaving with unsaved changes.
import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useMemo, useRef, useState } from 'react'
import { Link } from 'react-router'
import { Field, SelectField } from '#app/components/ui/field.tsx'
import { LocalTime } from '#app/components/ui/local-time.tsx'
import { languageName } from '#app/lib/i18n.ts'
import { useSiteLanguage } from '#app/lib/root-data.ts'
import { isoToLocalInput, localOffsetAt } from './editor-form.ts'
import { dominantScript, scriptName, writtenIn } from './text-script.ts'

// The languages the editor offers by name (any other tag an article carries is kept and shown):
// the interface's, then the most spoken and those of the movements Canopy serves.
const offeredLanguages = [
	'en',
	'es',
	'fr',
	'ar',
	'pt',
	'de',
	'it',
	'nl',
	'ca',
	'eu',
	'gl',
	'pl',
	'ro',
	'ru',
	'uk',
	'el',
	'tr',
	'he',
	'fa',
	'ur',
	'hi',
	'bn',
	'ta',
	'sw',
	'am',
	'yo',
	'ha',
	'id',
	'ms',
	'vi',
	'th',
	'tl',
	'zh-Hans',
	'zh-Hant',
	'ja',
	'ko',
	'qu',
	'gn',
]

/**
 * What language an article or page is in, and which one it translates: readers of one see
 * "Also in" links to the others, and search engines get each language's address.
 */
export function LanguageFields({
	language,
	chosen,
	onChoose,
	translationOf,
	otherLanguages,
	errors,
	text,
}: {
	/** The language stored (or sent with a refused save): the field's first value. */
	language: string
	/** The language chosen now ('' for the site's): the editor's preview reads in it too. */
	chosen: string
	onChoose: (language: string) => void
	translationOf: string
	/** Its published versions in other languages, each a link to its editor. */
	otherLanguages: readonly { id: number; language: string; title: string }[]
	errors: { language?: string[]; translationOf?: string[] }
	/** The text as typed: in a script the chosen language is not written in, the field says so. */
	text: string
}) {
	const { t, i18n } = useLingui()
	const siteLanguage = useSiteLanguage()
	const siteLanguageName = languageName(siteLanguage, i18n.locale)
	const codes =
		offeredLanguages.includes(language) || !language
			? offeredLanguages
			: [language, ...offeredLanguages]
	const named = codes
		.map((code) => ({ code, name: languageName(code, i18n.locale) }))
		.sort((a, b) => a.name.localeCompare(b.name, i18n.locale))
	// Read once per pause in typing (the text is debounced), not at every render of the editor.
	const script = useMemo(() => dominantScript(text), [text])
	const mismatch = script !== undefined && !writtenIn(chosen || siteLanguage, script)
	const scriptShown = script ? scriptName(script, i18n.locale) : ''
	const languageShown = languageName(chosen || siteLanguage, i18n.locale)
	return (
		<fieldset className="editor-language">
			<legend>
				<Trans>Language</Trans>
			</legend>
			<SelectField
				name="language"
				label={t`Written in`}
				hint={
					mismatch
						? t`The text seems to be in ${scriptShown} script, which ${languageShown} is not written in. Choose the language it is in, so that browsers, screen readers and search read it right.`
						: t`“The site’s” changes with the site’s language; a language chosen by its name stays.`
				}
				defaultValue={language}
				onChange={(event) => onChoose(event.currentTarget.value)}
				error={errors.language}
			>
				{/* Short enough for the settings column's 15rem: the site's language, followed. */}
				<option value="">
					{t({
						message: `The site’s (${siteLanguageName})`,
						comment: 'An article in the site’s language, which follows it should the site’s change',
					})}
				</option>
				{named.map(({ code, name }) => (
					<option key={code} value={code}>
						{name}
					</option>
				))}
			</SelectField>
			<Field
				name="translationOf"
				label={t`Translation of`}
				hint={t`The address (slug) of the original, if this is a translation of it; leave empty if it is not.`}
				defaultValue={translationOf}
				error={errors.translationOf}
				maxLength={200}
				autoCapitalize="off"
				spellCheck={false}
			/>
			{otherLanguages.length > 0 ? (
				<p className="hint editor-other-languages">
					<Trans>Also published in:</Trans>{' '}
					{otherLanguages.map((other, index) => (
						<span key={other.id}>
							{index > 0 ? ', ' : null}
							<Link to={`/admin/articles/${other.id}`} title={other.title}>
								{languageName(other.language || siteLanguage, i18n.locale)}
							</Link>
						</span>
					))}
				</p>
			) : null}
		</fieldset>
	)
}

export function ConflictNotice({
	conflict,
	articleId,
	onOverride,
}: {
	conflict: { version: number; updatedAt: string; pending?: { savedAt: string; by: string } }
	articleId: number | undefined
	onOverride: () => void
}) {
	const version = conflict.version
	const who = conflict.pending?.by
	return (
		<div role="alert" className="form-error conflict">
			<p>
				{conflict.pending ? (
					<Trans>
						<strong>{who} saved changes to this article</strong> (
						<LocalTime iso={conflict.pending.savedAt} time />, not live yet) after you opened it.
						Your changes are <strong>not saved</strong>; they are still in the form below.
					</Trans>
				) : (
					<Trans>
						<strong>Someone else saved this article</strong> (
						<LocalTime iso={conflict.updatedAt} />, now version {version}) after you opened it. Your
						changes are <strong>not saved</strong>; they are still in the form below.
					</Trans>
				)}
			</p>
			<p>
				<Trans>
					Copy what you need and <a href={`/admin/articles/${articleId}`}>open their version</a>, or
					save yours over theirs.
				</Trans>
			</p>
			<button type="button" onClick={onOverride}>
				<Trans>Keep my version, and save over theirs with my next save</Trans>
			</button>
		</div>
	)
}

/** When to publish, in the author's own time zone (sent along as an offset). */
export function ScheduleFields({
	publishAt,
	scheduled,
	typed,
	error,
	busy,
}: {
	publishAt: string | null
	scheduled: boolean
	/** What was typed before a refused save (the page re-rendered without JavaScript). */
	typed: string | undefined
	error: string[] | undefined
	busy: boolean
}) {
	const { t } = useLingui()
	const publishAtRef = useRef<HTMLInputElement>(null)
	// State, not a value set on the element: React puts a hidden input's defaultValue back on
	// every render of the form (a keystroke elsewhere), which sent the time as UTC.
	const [offset, setOffset] = useState(0)
	// Only the browser knows its zone: the stored time is shown in it after hydration.
	useEffect(() => {
		const field = publishAtRef.current
		if (!field) return
		if (publishAt && !typed) field.value = isoToLocalInput(publishAt)
		setOffset(localOffsetAt(field.value))
	}, [publishAt, typed])
	return (
		<fieldset className="editor-schedule">
			<legend>
				<Trans>Schedule</Trans>
			</legend>
			{scheduled && publishAt ? (
				<p>
					<Trans>
						Scheduled for <LocalTime iso={publishAt} time />.
					</Trans>
				</p>
			) : null}
			<Field
				name="publishAt"
				label={t`Publish at`}
				hint={t`In your time zone (UTC if JavaScript is off).`}
				type="datetime-local"
				ref={publishAtRef}
				defaultValue={typed}
				error={error}
				onChange={(event) => setOffset(localOffsetAt(event.currentTarget.value))}
			/>
			<input type="hidden" name="timezoneOffset" value={offset} />
			<button type="submit" name="intent" value="schedule" disabled={busy}>
				{scheduled ? <Trans>Change the time</Trans> : <Trans>Schedule</Trans>}
			</button>
		</fieldset>
	)
}
