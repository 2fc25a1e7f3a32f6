import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { Form } from 'react-router'

/**
 * Deleting for good asks first: a disclosure opens the warning and the one button that deletes
 * (works without JavaScript). `hidden` fields go with the post (say, the version edited).
 */
export function DeleteConfirmation({
	summary,
	hidden = {},
	busy,
	children,
}: {
	summary: string
	hidden?: Record<string, string | number>
	busy: boolean
	/** The warning: what will be gone. */
	children: ReactNode
}) {
	return (
		<details>
			<summary>{summary}</summary>
			<Form method="post">
				{Object.entries(hidden).map(([name, value]) => (
					<input key={name} type="hidden" name={name} value={value} />
				))}
				<p>{children}</p>
				<button type="submit" name="intent" value="delete" className="destructive" disabled={busy}>
					<Trans>Delete for good</Trans>
				</button>
			</Form>
		</details>
	)
}
