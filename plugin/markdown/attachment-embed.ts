import type { MarkdownRenderer } from 'vitepress'
import { normalizeBase } from '../../server/knowledge/routes.js'
import { attachmentKind } from '../../server/knowledge/attachments.js'
import type { WikiLinkParts } from '../../server/knowledge/wiki-syntax.js'

type InlineRule = Parameters<MarkdownRenderer['inline']['ruler']['before']>[2]
type StateInline = Parameters<InlineRule>[0]
type Token = ReturnType<StateInline['push']>

// At most five digits: a size is a layout hint, never a way to push a huge number into the page.
const SIZE = /^(\d{1,5})(?:x(\d{1,5}))?$/
// Characters a raw fragment cannot carry; the rest (`page=3&zoom=50`, `^block`, CJK) stays readable.
const FRAGMENT_UNSAFE = /[\s"'<>`%#\\{}]/g
// An attachment URL keeps only these as written: nothing that can end a quoted string in HTML or JavaScript.
const URL_UNSAFE = /[^A-Za-z0-9._~/%=&^#-]/gu

/**
 * The URL of an attachment file (relative to the site's source folder), under the site's base.
 * Files in `public/` are served from the root; every other one is shipped at its own path.
 * Each segment is %-encoded, so a name can never carry a scheme, a quote or markup.
 */
export function attachmentUrl(filePath: string, base?: string): string {
  const served = filePath.startsWith('public/') ? filePath.slice('public/'.length) : filePath
  return strictUrl(normalizeBase(base)) + served.split('/').map((segment) => strictUrl(encodeURIComponent(segment))).join('/')
}

/** %-encodes everything outside a small safe set, so the URL is also a safe JavaScript string body. */
function strictUrl(url: string): string {
  return url.replace(URL_UNSAFE, (character) =>
    [...new TextEncoder().encode(character)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  )
}

export function encodeFragment(fragment: string): string {
  return fragment.replace(FRAGMENT_UNSAFE, (character) => encodeURIComponent(character))
}

/** The label of `![[file|alt|300x200]]` split into alt text and size: the size is the last '|' part, digits only. */
export function readLabel(label: string | undefined): { alt?: string; width?: string; height?: string } {
  if (!label) return {}
  const pipe = label.lastIndexOf('|')
  const size = SIZE.exec(label.slice(pipe + 1).trim())
  if (!size) return { alt: label }
  const alt = pipe === -1 ? undefined : label.slice(0, pipe).trim() || undefined
  return { alt, width: size[1], height: size[2] }
}

function fileName(target: string): string {
  return target.slice(target.lastIndexOf('/') + 1)
}

/** Pushes an element with `v-pre`, so a name or label with `{{ }}` stays text (img and video bind their src instead). */
function open(state: StateInline, type: string, tag: string, nesting: 0 | 1): Token {
  const token = state.push(type, tag, nesting)
  token.attrSet('v-pre', '')
  return token
}

function pushText(state: StateInline, text: string): void {
  state.push('text', '', 0).content = text
}

/** A missing attachment: a visible marker with no URL, so nothing is imported or fetched. */
function renderMissing(state: StateInline, parts: WikiLinkParts, embed: boolean): void {
  const token = open(state, 'metablog_link_open', 'a', 1)
  token.attrSet('class', `metablog-link metablog-link--file metablog-link--unresolved${embed ? ' metablog-embed' : ''}`)
  token.attrSet('title', `No attachment named “${parts.target}” yet`)
  token.attrSet('data-target', parts.target)
  pushText(state, readLabel(parts.label).alt ?? parts.target)
  state.push('metablog_link_close', 'a', -1)
}

/**
 * `![[file.png|300]]`, `![[clip.mp4]]`, `![[paper.pdf#page=2]]`, `[[file.pdf]]`: `filePath` is the
 * attachment found (null when missing). Images, audio, video and PDFs embed; other files link.
 */
export function renderAttachment(state: StateInline, parts: WikiLinkParts, embed: boolean, filePath: string | null, base?: string): void {
  if (filePath === null) return renderMissing(state, parts, embed)
  const { alt, width, height } = readLabel(parts.label)
  const url = attachmentUrl(filePath, base) + (parts.heading ? `#${strictUrl(encodeFragment(parts.heading))}` : '')
  const kind = embed ? attachmentKind(filePath) : 'file'
  const sized = (token: Token) => {
    if (width) token.attrSet('width', width)
    if (height) token.attrSet('height', height)
    return token
  }
  if (kind === 'image') {
    // Not v-pre: a bound src keeps Vue's asset-URL transform away. That transform makes a static
    // img/video src an import, and writes the decoded name into it unescaped (a quote breaks, or
    // injects into, the module). The URL is served as a file: in dev by Vite, in a build by MetaBlog.
    const image = sized(state.push('metablog_embed_image', 'img', 0))
    image.attrSet(':src', `'${url}'`)
    image.attrSet('alt', alt ?? fileName(parts.target))
    image.attrSet('class', 'metablog-embed metablog-embed-image')
    image.attrSet('loading', 'lazy')
    return
  }
  if (kind === 'audio' || kind === 'video' || kind === 'pdf') {
    const tag = kind === 'pdf' ? 'iframe' : kind
    const media = sized(kind === 'video' ? state.push(`metablog_embed_${kind}_open`, tag, 1) : open(state, `metablog_embed_${kind}_open`, tag, 1))
    if (kind === 'video') media.attrSet(':src', `'${url}'`)
    else media.attrSet('src', url)
    media.attrSet('class', `metablog-embed metablog-embed-${kind}`)
    if (kind === 'pdf') media.attrSet('title', alt ?? fileName(parts.target))
    else media.attrSet('controls', '')
    state.push(`metablog_embed_${kind}_close`, tag, -1)
    return
  }
  const link = open(state, 'metablog_link_open', 'a', 1)
  link.attrSet('href', url)
  link.attrSet('class', 'metablog-link metablog-link--file')
  pushText(state, alt ?? parts.target)
  state.push('metablog_link_close', 'a', -1)
}
