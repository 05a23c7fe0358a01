// @-mentions: where a mention is being typed in the composer, and the mentioned pages' text attached as context.
import type { MetaBlogApi } from '../../api/metablog-api'

/** A mention being typed: what triggered it, the text typed after it, and where the trigger starts. */
export interface MentionQuery {
  trigger: '@' | '[['
  query: string
  start: number
}

/** A page's text as attached to a request; `truncated` when it was cut to the cap. */
export interface Attachment {
  path: string
  content: string
  truncated: boolean
  /** The page's full length in characters. */
  length: number
}

/** Characters of one page attached; the rest is cut with a visible note. */
export const ATTACHMENT_LIMIT = 6000
/** Characters of all attached pages together. */
export const ATTACHMENTS_TOTAL_LIMIT = 16_000
/** Pages one request may mention. */
export const MAX_MENTIONS = 5

const AT_QUERY = /(?:^|\s)@([^\s@]{0,80})$/
const WIKI_QUERY = /\[\[([^\]\n[]{0,80})$/

/** The mention typed just before the caret, if any: `@ato` or `[[atomic wr`. */
export function mentionQuery(draft: string, caret = draft.length): MentionQuery | null {
  const before = draft.slice(0, caret)
  const wiki = WIKI_QUERY.exec(before)
  if (wiki) return { trigger: '[[', query: wiki[1]!, start: wiki.index }
  const at = AT_QUERY.exec(before)
  if (!at) return null
  return { trigger: '@', query: at[1]!, start: before.length - at[1]!.length - 1 }
}

/** The draft with the typed mention removed (the chip replaces it). */
export function withoutMention(draft: string, mention: MentionQuery, caret = draft.length): string {
  return `${draft.slice(0, mention.start)}${draft.slice(caret)}`.replace(/ {2,}/g, ' ')
}

/** Reads the mentioned pages, each cut to the cap, all together under the total cap. */
export async function readAttachments(api: MetaBlogApi, paths: readonly string[], signal?: AbortSignal): Promise<Attachment[]> {
  const attachments: Attachment[] = []
  let room = ATTACHMENTS_TOTAL_LIMIT
  for (const path of [...new Set(paths)].slice(0, MAX_MENTIONS)) {
    const { content } = await api.readFile(path, { signal })
    const cap = Math.min(ATTACHMENT_LIMIT, room)
    attachments.push({ path, content: content.slice(0, cap), truncated: content.length > cap, length: content.length })
    room = Math.max(0, room - Math.min(content.length, cap))
  }
  return attachments
}

/** The note the panel shows for what was attached, naming each truncated page. */
export function attachmentNote(attachments: readonly Attachment[]): string {
  const parts = attachments.map(({ path, content, truncated, length }) =>
    truncated ? `**${path}** (truncated: the first ${content.length.toLocaleString('en-US')} of ${length.toLocaleString('en-US')} characters)` : `**${path}**`,
  )
  return `Attached ${parts.join(', ')}.`
}

/** The request as the model reads it: the author's words, then each attached page. */
export function withAttachments(text: string, attachments: readonly Attachment[] | undefined): string {
  if (!attachments?.length) return text
  const pages = attachments.map(({ path, content, truncated }) => `<page path="${path}"${truncated ? ' truncated="true"' : ''}>\n${content}\n</page>`)
  return `${text}\n\nPages the author mentioned (their source, as context):\n\n${pages.join('\n\n')}`
}
