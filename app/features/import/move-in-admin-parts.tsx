// What the moving-in pages show of a run: its state in a word or two.
import { Trans } from '@lingui/react/macro'
import type { MoveInRun } from '#storage/port/move-in.ts'

export function MoveInState({
	run,
}: {
	run: Pick<MoveInRun, 'state' | 'dryRun'> & { stalled: boolean }
}) {
	if (run.stalled)
		return (
			<span className="move-in-state failed">
				<Trans>Stopped</Trans>
			</span>
		)
	if (run.state === 'running')
		return (
			<span className="move-in-state running">
				{run.dryRun ? <Trans>Checking…</Trans> : <Trans>Importing…</Trans>}
			</span>
		)
	if (run.state === 'failed')
		return (
			<span className="move-in-state failed">
				<Trans>Could not import</Trans>
			</span>
		)
	return (
		<span className="move-in-state done">
			{run.dryRun ? <Trans>Checked</Trans> : <Trans>Imported</Trans>}
		</span>
	)
}
