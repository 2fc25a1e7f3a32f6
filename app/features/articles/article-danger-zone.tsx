import { Form } from 'react-router'
import type { EditorArticle } from './article-editor.tsx'

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
			<details>
				<summary>Delete this article…</summary>
				<Form method="post">
					<input type="hidden" name="version" value={version} />
					<p>
						“{article.title}” will be deleted for good
						{article.status === 'published' ? ' and disappear from the public site' : ''}. This
						cannot be undone.
					</p>
					<button
						type="submit"
						name="intent"
						value="delete"
						className="destructive"
						disabled={busy}
					>
						Delete for good
					</button>
				</Form>
			</details>
		</section>
	)
}
