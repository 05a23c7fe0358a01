// What in a page VitePress would run rather than show: raw HTML, Vue interpolations and attribute
// blocks, `-vue` code, snippet imports. The check behind the content guard and the client sanitizer.
import MarkdownIt, { type Token } from 'markdown-it'
import { findFrontMatter } from './front-matter-rules.js'

// Entities stay entities in VitePress, unlike a plain markdown-it parse: keep them apart to tell.
export const parser = new MarkdownIt({ html: true })
parser.core.ruler.disable('text_join')

export const V_PRE_OPEN = '<span v-pre>'
export const V_PRE_CLOSE = '</span>'
/** A fence language VitePress compiles as Vue instead of showing (`html-vue`, `js-vue:line-numbers`). */
export const VUE_FENCE = /-vue(?=:|$)/
// `{#id}` and `{.class}` only set an anchor or a class: the one attribute block worth keeping.
export const SAFE_ATTRIBUTES = /\{(?:[ \t]*[#.][\w-]+)+[ \t]*\}/y

export function firstWord(info: string): string {
  return info.trim().split(/\s+/)[0] ?? ''
}

/** A sticky pattern's match at `index`. */
export function matchAt(pattern: RegExp, text: string, index: number): RegExpExecArray | null {
  pattern.lastIndex = index
  return pattern.exec(text)
}

/** Every brace that is not a harmless `{#id}`/`{.class}`, plus snippet lines: one more raw `{` is one more count. */
function liveBraces(text: string): number {
  let count = 0
  for (let index = text.indexOf('{'); index !== -1; index = text.indexOf('{', index + 1)) {
    if (!matchAt(SAFE_ATTRIBUTES, text, index)) count++
  }
  return count + (/(?:^|\n)[ \t]*<<</.test(text) ? 1 : 0)
}

function liveInline(children: Token[]): number {
  let count = 0
  let text = ''
  let preformatted = 0
  const flush = () => {
    if (preformatted === 0) count += liveBraces(text)
    text = ''
  }
  for (const child of children) {
    if (child.type === 'text' || (child.type === 'text_special' && child.info !== 'entity')) {
      text += child.content
      continue
    }
    flush()
    if (child.type === 'html_inline') {
      if (child.content === V_PRE_OPEN) preformatted++
      else if (child.content === V_PRE_CLOSE && preformatted > 0) preformatted--
      else count++
    } else if (child.type === 'code_inline' && child.content.includes('{{') && preformatted === 0) count++
  }
  flush()
  return count
}

/** How many things in a page VitePress would run: raw HTML, Vue interpolations and attribute blocks, snippet imports. */
export function liveConstructs(markdown: string): number {
  let count = 0
  for (const token of parser.parse(withoutFrontMatter(markdown), {})) {
    if (token.type === 'html_block') count++
    else if (token.type === 'code_block' && token.content.includes('{{')) count++
    else if (token.type === 'fence' && VUE_FENCE.test(firstWord(token.info)) && token.content.includes('{{')) count++
    else if (token.type === 'inline') count += liveInline(token.children ?? [])
  }
  return count
}

/** The page with its front matter blanked: VitePress hands it to gray-matter, never to the template. */
function withoutFrontMatter(markdown: string): string {
  if (!markdown.startsWith('---') && !markdown.startsWith('\uFEFF---')) return markdown
  const lines = markdown.split('\n')
  const block = findFrontMatter(lines)
  if (!block) return markdown
  return lines.map((line, index) => (index <= block.end ? '' : line)).join('\n')
}
