import type { MarkdownRenderer } from 'vitepress'
import { pageRoute } from '../../server/knowledge/routes.js'
import { slugify as vitepressSlugify } from '../../server/knowledge/slug.js'
import { isAssetTarget, isImageTarget, parseWikiInner, type WikiLinkParts } from '../../server/knowledge/wiki-syntax.js'

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
}

interface RenderEnv {
  relativePath?: string
  cleanUrls?: boolean
}

const SIZE = /^(\d+)(?:x(\d+))?$/

/** Where an attachment lives, relative to the page: bare names sit beside it, 'a/b.png' is from the site root. */
function assetSource(target: string, fromPath: string): string {
  let source = target
  if (!/^(?:\.{1,2}\/|\/)/.test(target)) {
    const depth = fromPath.split('/').length - 1
    source = target.includes('/') && depth > 0 ? '../'.repeat(depth) + target : `./${target}`
  }
  return source.replace(/[\s"'<>`?#%]/g, (character) => encodeURIComponent(character))
}

/** markdown-it plugin: `[[Page]]`, `[[Page#Heading|text]]`, `[[#Heading]]`, `![[Page]]` and `![[image.png|300]]`. */
export function wikiLinkPlugin(md: MarkdownRenderer, options: WikiLinkOptions): void {
  const slugify = options.slugify ?? vitepressSlugify

  function pushLabel(state: StateInline, labelStart: number, labelEnd: number): void {
    // The label is Markdown (emphasis, code), parsed in place like a normal link's text.
    const { pos, posMax } = state
    state.pos = labelStart
    state.posMax = labelEnd
    state.linkLevel++
    state.md.inline.tokenize(state)
    state.linkLevel--
    state.pos = pos
    state.posMax = posMax
  }

  /** Opens the anchor; `v-pre` keeps Vue from reading titles, labels and targets as template code. */
  function pushOpen(state: StateInline): ReturnType<StateInline['push']> {
    const token = state.push('metablog_link_open', 'a', 1)
    token.attrSet('v-pre', '')
    return token
  }

  function pushText(state: StateInline, text: string): void {
    state.push('text', '', 0).content = text
  }

  function renderAsset(state: StateInline, parts: WikiLinkParts, embed: boolean, fromPath: string): void {
    const source = assetSource(parts.target, fromPath)
    const size = parts.label ? SIZE.exec(parts.label) : null
    if (embed && isImageTarget(parts.target)) {
      const image = state.push('metablog_embed_image', 'img', 0)
      image.attrSet('src', source)
      image.attrSet('alt', size || !parts.label ? parts.target.slice(parts.target.lastIndexOf('/') + 1) : parts.label)
      image.attrSet('class', 'metablog-embed-image')
      if (size?.[1]) image.attrSet('width', size[1])
      if (size?.[2]) image.attrSet('height', size[2])
      return
    }
    const open = pushOpen(state)
    open.attrSet('href', source)
    open.attrSet('class', 'metablog-link metablog-link--file')
    pushText(state, size || !parts.label ? parts.target : parts.label)
    state.push('metablog_link_close', 'a', -1)
  }

  const rule = (state: StateInline, silent: boolean): boolean => {
    const { src } = state
    const start = state.pos
    const embed = src.charCodeAt(start) === 0x21 /* ! */
    const open = embed ? start + 1 : start
    if (src.charCodeAt(open) !== 0x5b || src.charCodeAt(open + 1) !== 0x5b) return false
    const close = src.indexOf(']]', open + 2)
    if (close === -1 || close + 2 > state.posMax) return false
    const inner = src.slice(open + 2, close)
    const parts = parseWikiInner(inner)
    // A wiki-link inside a link's text would nest anchors: leave it as text.
    if (!parts || state.linkLevel > 0) return false
    if (!silent) {
      const env = (state.env ?? {}) as RenderEnv
      const fromPath = env.relativePath ?? ''
      if (isAssetTarget(parts.target)) renderAsset(state, parts, embed, fromPath)
      else {
        const page = parts.target ? options.resolve(parts.target, fromPath) : { path: fromPath, title: '' }
        const token = pushOpen(state)
        if (page) {
          const route = parts.target ? pageRoute(page.path, { base: options.base, cleanUrls: options.cleanUrls ?? env.cleanUrls ?? false }) : ''
          token.attrSet('href', route + (parts.heading ? `#${slugify(parts.heading)}` : ''))
          token.attrSet('class', embed ? 'metablog-link metablog-embed' : 'metablog-link')
        } else {
          token.attrSet('class', `metablog-link metablog-link--unresolved${embed ? ' metablog-embed' : ''}`)
          token.attrSet('title', `No page named “${parts.target}” yet`)
          token.attrSet('data-target', parts.target)
        }
        if (parts.label) pushLabel(state, open + 2 + inner.indexOf('|') + 1, close)
        else if (embed && page?.title) pushText(state, parts.heading ? `${page.title} › ${parts.heading}` : page.title)
        else pushText(state, parts.target ? (parts.heading ? `${parts.target} › ${parts.heading}` : parts.target) : parts.heading!)
        state.push('metablog_link_close', 'a', -1)
      }
    }
    state.pos = close + 2
    return true
  }

  md.inline.ruler.before('link', 'metablog_wikilink', rule as InlineRule)
}
