import type { MarkdownRenderer } from 'vitepress'
import { BLOCK_ID } from '../../server/knowledge/heading-ids.js'
import { pageRoute } from '../../server/knowledge/routes.js'
import { slugify as vitepressSlugify } from '../../server/knowledge/slug.js'
import { isAssetTarget, tokenizeLabel, wikiLinkAt } from '../../server/knowledge/wiki-syntax.js'
import { encodeFragment, renderAttachment } from './attachment-embed.js'
import { blockAnchorsPlugin, type SamePageFragment } from './block-anchors.js'

type InlineRule = Parameters<MarkdownRenderer['inline']['ruler']['before']>[2]
// markdown-it 14 counts link nesting in `linkLevel`; its type definitions leave it out.
type StateInline = Parameters<InlineRule>[0] & { linkLevel: number }

/** A page a wiki-link leads to. */
export interface WikiLinkTarget {
  path: string
  title: string
}

/**
 * Finds the page for a link target (the part before '#' and '|') written on `fromPath`. At dev
 * time this is the live KnowledgeIndex (`(target, from) => index.resolve(target, from)`); at build
 * time, an index built from the source folder before rendering.
 */
export type WikiLinkResolver = (target: string, fromPath: string) => WikiLinkTarget | null

export interface WikiLinkOptions {
  resolve: WikiLinkResolver
  /** The site's `base`. Default '/'. */
  base?: string
  /** Default: VitePress's own `cleanUrls`, which it passes to markdown-it in `env`. */
  cleanUrls?: boolean
  /** Heading anchors; must match `markdown.anchor.slugify` if the site changes it. Default: VitePress's. */
  slugify?: (text: string) => string
  /**
   * Finds the attachment file (relative to the source folder) for `![[file.png]]` written on
   * `fromPath`; null when missing. Without it every attachment renders as missing: a guessed
   * URL would become a module import that fails the build.
   */
  resolveAttachment?: (target: string, fromPath: string) => string | null
  /** The element id `#fragment` reaches on another page (heading id with de-duplication, or `^block`). Default: the slug. */
  fragmentId?: (pagePath: string, fragment: string) => string
}

interface RenderEnv {
  relativePath?: string
  cleanUrls?: boolean
}

/** markdown-it plugin: `[[Page]]`, `[[Page#Heading|text]]`, `[[#Heading]]`, `[[Page#^block]]`, `![[Page]]` and `![[image.png|300]]`. */
export function wikiLinkPlugin(md: MarkdownRenderer, options: WikiLinkOptions): void {
  const slugify = options.slugify ?? vitepressSlugify
  const fragmentId = options.fragmentId ?? ((_pagePath: string, fragment: string) => (BLOCK_ID.test(fragment) ? fragment : slugify(fragment)))

  /** Opens the anchor; `v-pre` keeps Vue from reading titles, labels and targets as template code. */
  function pushOpen(state: StateInline): ReturnType<StateInline['push']> {
    const token = state.push('metablog_link_open', 'a', 1)
    token.attrSet('v-pre', '')
    return token
  }

  function pushText(state: StateInline, text: string): void {
    state.push('text', '', 0).content = text
  }

  const rule = (state: StateInline, silent: boolean): boolean => {
    const found = wikiLinkAt(state.src, state.pos, state.posMax)
    // A wiki-link inside a link's text would nest anchors: leave it as text.
    if (!found || state.linkLevel > 0) return false
    const { embed, open, close, inner, parts } = found
    if (!silent) {
      const env = (state.env ?? {}) as RenderEnv
      const fromPath = env.relativePath ?? ''
      if (isAssetTarget(parts.target)) renderAttachment(state, parts, embed, options.resolveAttachment?.(parts.target, fromPath) ?? null, options.base)
      else {
        const page = parts.target ? options.resolve(parts.target, fromPath) : { path: fromPath, title: '' }
        const token = pushOpen(state)
        if (page) {
          const route = parts.target ? pageRoute(page.path, { base: options.base, cleanUrls: options.cleanUrls ?? env.cleanUrls ?? false }) : ''
          token.attrSet('href', route + (parts.heading ? `#${encodeFragment(fragmentId(page.path, parts.heading))}` : ''))
          // `[[#Heading]]`: the ids this page really renders are known only once it is parsed.
          if (!parts.target && parts.heading) token.meta = { metablogFragment: parts.heading } satisfies SamePageFragment
          token.attrSet('class', embed ? 'metablog-link metablog-embed' : 'metablog-link')
        } else {
          token.attrSet('class', `metablog-link metablog-link--unresolved${embed ? ' metablog-embed' : ''}`)
          token.attrSet('title', `No page named “${parts.target}” yet`)
          token.attrSet('data-target', parts.target)
        }
        if (parts.label) tokenizeLabel(state, open + 2 + inner.indexOf('|') + 1, close)
        else if (embed && page?.title) pushText(state, parts.heading ? `${page.title} › ${parts.heading}` : page.title)
        else pushText(state, parts.target ? (parts.heading ? `${parts.target} › ${parts.heading}` : parts.target) : parts.heading!)
        state.push('metablog_link_close', 'a', -1)
      }
    }
    state.pos = close + 2
    return true
  }

  md.inline.ruler.before('link', 'metablog_wikilink', rule as InlineRule)
  md.use(blockAnchorsPlugin)
}
