// What changed between two revisions of an article, field by field, word by word, for the
// history page. A diff of two long texts can cost much: each field's is held to a time and an edit
// length (jsdiff's own limits), and falls back to whole lines, then to "replaced".
import { type ChangeObject, diffLines, diffWords } from 'diff'
import {
	changedFields,
	type RevisionField,
	type RevisionSnapshot as Snapshot,
} from '#storage/port/revisions.ts'
import { revisionFieldLabels } from './revision-labels.ts'

export interface DiffPart {
	text: string
	change: 'added' | 'removed' | 'same'
}

export interface FieldDiff {
	field: RevisionField
	label: string
	parts: DiffPart[]
}

const limits = { timeout: 50, maxEditLength: 20_000 }
/** Unchanged text longer than this is shortened to its two ends, around a "…". */
const sameShown = 240

/** How a status reads in the diff: in the interface's language where the page gives it. */
export type StatusNames = Record<'draft' | 'published', string>

const englishStatus: StatusNames = { draft: 'Draft', published: 'Published' }

function asText(value: Snapshot[RevisionField], status: StatusNames): string {
	if (Array.isArray(value)) return value.join(', ')
	if (value === 'published' || value === 'draft') return status[value]
	return value ?? ''
}

function parts(changes: ChangeObject<string>[]): DiffPart[] {
	return changes.map((change) => ({
		text: change.value,
		change: change.added ? 'added' : change.removed ? 'removed' : 'same',
	}))
}

/** Long stretches that did not change, cut to their ends: the changes are what is read. */
function shortened(diff: DiffPart[]): DiffPart[] {
	return diff.map((part, index) => {
		if (part.change !== 'same' || part.text.length <= sameShown) return part
		const half = sameShown / 2
		const first = index === 0
		const last = index === diff.length - 1
		const head = first ? '' : part.text.slice(0, half)
		const tail = last ? '' : part.text.slice(-half)
		return { ...part, text: `${head} … ${tail}` }
	})
}

/** One text against another: by words, else by lines, else all of it replaced. */
export function textDiff(before: string, after: string): DiffPart[] {
	if (before === after) return [{ text: after, change: 'same' }]
	const byWords = diffWords(before, after, limits)
	if (byWords) return shortened(parts(byWords))
	const byLines = diffLines(before, after, limits)
	if (byLines) return shortened(parts(byLines))
	return [
		{ text: before, change: 'removed' },
		{ text: after, change: 'added' },
	]
}

/**
 * The fields that differ from `before` to `after`, each with its words taken out and put in;
 * with nothing before (the first revision), none.
 */
export function revisionDiff(
	before: Snapshot | undefined,
	after: Snapshot,
	status: StatusNames = englishStatus,
): FieldDiff[] {
	return changedFields(before, after).map((field) => ({
		field,
		label: revisionFieldLabels[field],
		parts: textDiff(asText(before?.[field] ?? null, status), asText(after[field], status)),
	}))
}
