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
	return (
		<section className="danger" aria-labelledby="danger-heading">
			<h2 id="danger-heading">Take it down</h2>
			{article.status === 'published' ? (
				<Form method="post">
					<input type="hidden" name="version" value={version} />
					<button type="submit" name="intent" value="unpublish" disabled={busy}>
						Unpublish (keep as draft)
					</button>
				</Form>
			) : null}
			<DeleteConfirmation summary="Delete this article…" hidden={{ version }} busy={busy}>
				“{article.title}” will be deleted for good
				{article.status === 'published' ? ' and disappear from the public site' : ''}. This cannot
				be undone.
			</DeleteConfirmation>
		</section>
	)
}
