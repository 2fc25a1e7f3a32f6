import { Trans, useLingui } from '@lingui/react/macro'
import { Form } from 'react-router'
import { DeleteConfirmation } from '#app/components/ui/delete-confirmation.tsx'
import type { EditorArticle } from './article-editor-types.ts'

/** Unpublish and delete, apart from the form; deleting asks first (a disclosure, no JS needed). */
export function DangerZone({
	article,
	version,
	busy,
}: {
	article: EditorArticle
	version: number
	busy: boolean
}) {
	const { t } = useLingui()
	const title = article.title
	return (
		<section className="danger" aria-labelledby="danger-heading">
			<h2 id="danger-heading">
				<Trans>Take it down</Trans>
			</h2>
			{article.status === 'published' ? (
				<Form method="post">
					<input type="hidden" name="version" value={version} />
					<button type="submit" name="intent" value="unpublish" disabled={busy}>
						<Trans>Unpublish (keep as draft)</Trans>
					</button>
				</Form>
			) : null}
			<DeleteConfirmation summary={t`Delete this article…`} hidden={{ version }} busy={busy}>
				{article.status === 'published' ? (
					<Trans>
						“<bdi>{title}</bdi>” will be deleted for good and disappear from the public site. This
						cannot be undone.
					</Trans>
				) : (
					<Trans>
						“<bdi>{title}</bdi>” will be deleted for good. This cannot be undone.
					</Trans>
				)}
			</DeleteConfirmation>
		</section>
	)
}
