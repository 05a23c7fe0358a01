// Exact-match replacements in a page's source, as edit_page makes them: every other byte stays.
import { ClientError } from '../api/errors'
import { sanitizeMarkdown, type Neutralized } from '../skills/sanitize-markdown'

export interface TextEdit {
  oldText: string
  newText: string
}

export interface AppliedEdits {
  content: string
  /** The smallest span of the old page covering every edit, and the same span after them (for the diff). */
  start: number
  end: number
  before: string
  after: string
  neutralized: Neutralized[]
}

function locate(source: string, edit: TextEdit, index: number): number {
  if (edit.oldText === '') throw new ClientError('ERR_EDIT_NOT_FOUND', `edits[${index}].oldText is empty; quote the exact text to replace.`)
  const at = source.indexOf(edit.oldText)
  if (at === -1) {
    throw new ClientError('ERR_EDIT_NOT_FOUND', `edits[${index}].oldText is not in the page. Copy it exactly from read_page (spaces and line breaks count).`)
  }
  if (source.indexOf(edit.oldText, at + 1) !== -1) {
    throw new ClientError('ERR_EDIT_AMBIGUOUS', `edits[${index}].oldText appears more than once in the page. Quote more of the surrounding text so it is unique.`)
  }
  return at
}

/** Applies the edits to `source`; each oldText must occur exactly once and edits must not overlap. */
export function applyEdits(source: string, edits: readonly TextEdit[]): AppliedEdits {
  const placed = edits.map((edit, index) => ({ ...edit, index, at: locate(source, edit, index) })).sort((a, b) => a.at - b.at)
  for (let index = 1; index < placed.length; index++) {
    const previous = placed[index - 1]!
    if (placed[index]!.at < previous.at + previous.oldText.length) {
      throw new ClientError('ERR_EDIT_OVERLAP', `edits[${placed[index]!.index}] overlaps edits[${previous.index}]. Merge them into one edit.`)
    }
  }
  const neutralized = new Set<Neutralized>()
  let content = ''
  let cursor = 0
  for (const edit of placed) {
    const end = edit.at + edit.oldText.length
    // Sanitized in place, so code around the new text stays code (the server guards the write again).
    const clean = sanitizeMarkdown(edit.newText, { before: source.slice(0, edit.at), original: edit.oldText, after: source.slice(end) })
    for (const kind of clean.neutralized) neutralized.add(kind)
    content += source.slice(cursor, edit.at) + clean.markdown
    cursor = end
  }
  content += source.slice(cursor)
  const start = placed[0]?.at ?? 0
  const last = placed.at(-1)
  const end = last ? last.at + last.oldText.length : 0
  const tail = source.length - end
  return { content, start, end, before: source.slice(start, end), after: content.slice(start, content.length - tail), neutralized: [...neutralized] }
}
