// The text the site's wiki-link rule (plugin/markdown/wiki-link-rule.ts) renders, without its links.
import type MarkdownIt from 'markdown-it'
import type { StateInline } from 'markdown-it'
import { isAssetTarget, tokenizeLabel, wikiLinkAt } from '../../../server/knowledge/wiki-syntax.js'

/** What the page knows of link targets; without it embeds show their target and attachments are taken as present. */
export interface LinkTargets {
  /** The title of the page a target names: `![[page]]` shows it. */
  titleOf?: (target: string) => string | null
  /** Whether an attachment exists: a missing one shows its name instead of embedding. */
  hasAttachment?: (target: string) => boolean
}

type Inline = StateInline & { linkLevel: number }

// `![[file|alt|300x200]]`: the last part is a size when it is digits only.
const SIZE = /^\d{1,5}(?:x\d{1,5})?$/

function altText(label: string | undefined): string | undefined {
  if (!label) return undefined
  const pipe = label.lastIndexOf('|')
  if (!SIZE.test(label.slice(pipe + 1).trim())) return label
  return pipe === -1 ? undefined : label.slice(0, pipe).trim() || undefined
}

/** markdown-it plugin: `[[…]]` and `![[…]]` become the same text tokens the site renders. */
export function wikiLinkTextPlugin(md: MarkdownIt, options: LinkTargets = {}): void {
  const pushText = (state: Inline, text: string) => {
    state.push('text', '', 0).content = text
  }

  md.inline.ruler.before('link', 'metablog_wikilink', (plain, silent) => {
    const state = plain as Inline
    const found = wikiLinkAt(state.src, state.pos, state.posMax)
    if (!found || state.linkLevel > 0) return false
    const { embed, open, close, inner, parts } = found
    if (!silent) {
      state.push('metablog_link_open', 'a', 1)
      if (isAssetTarget(parts.target)) {
        // An embedded image, sound, video or PDF has no text; a linked file shows its name.
        if (!embed || options.hasAttachment?.(parts.target) === false) pushText(state, altText(parts.label) ?? parts.target)
      } else if (parts.label) {
        tokenizeLabel(state, open + 2 + inner.indexOf('|') + 1, close)
      } else {
        const title = embed && parts.target ? options.titleOf?.(parts.target) : null
        if (title) pushText(state, parts.heading ? `${title} › ${parts.heading}` : title)
        else pushText(state, parts.target ? (parts.heading ? `${parts.target} › ${parts.heading}` : parts.target) : parts.heading!)
      }
      state.push('metablog_link_close', 'a', -1)
    }
    state.pos = close + 2
    return true
  })
}
