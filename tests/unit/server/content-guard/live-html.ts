// What in VitePress's rendered HTML would run once Vue compiles the page: anything outside v-pre
// regions that is a {{ }} in text, an event handler, a Vue directive or binding, a tag Markdown
// does not make, a script-capable URL, or a URL carrying the test's marker.

// Tags VitePress's Markdown renderer itself emits; anything else came from raw HTML.
const MARKDOWN_TAGS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'a', 'em', 'strong', 'code', 'pre', 'span', 'div', 'button', 'ul', 'ol', 'li',
  'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr', 'br', 'img', 's', 'del', 'input', 'label', 'details',
  'summary', 'sup', 'sub', 'section', 'mark',
])
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'background'])
const TAG = /<(\/?)([A-Za-z][\w:.-]*)([^>]*)>/g
const ATTRIBUTE = /([^\s"'=<>`/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g

function decode(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_match, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_match, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;|&newline;/gi, '')
    .replace(/&amp;/gi, '&')
}

/** The HTML without v-pre regions (fences and wrapped code spans), which Vue does not compile. */
function compiledPart(html: string): string {
  return html.replace(/<pre\b[^>]*\bv-pre\b[^>]*>[\s\S]*?<\/pre>/g, '<pre></pre>').replace(/<span v-pre(?:="")?>[\s\S]*?<\/span>/g, '')
}

/** Every live construct found, as short descriptions; empty when the page is inert. */
export function liveInHtml(html: string, marker: string): string[] {
  const found: string[] = []
  const part = compiledPart(html)
  const text = part.replace(TAG, ' ')
  if (text.includes('{{')) found.push(`interpolation: ${text.slice(text.indexOf('{{'), text.indexOf('{{') + 60)}`)
  for (const [, , name, attributes] of part.matchAll(TAG)) {
    const tag = name!.toLowerCase()
    if (!MARKDOWN_TAGS.has(tag)) found.push(`tag <${name}>`)
    // Browsers also split attributes at `/` (`<img/src=x/onerror=…>`).
    if (/(?:^|[\s/"'])on[a-z]+\s*=/i.test(attributes!.replace(/"[^"]*"|'[^']*'/g, '""'))) found.push(`event handler on <${tag}>`)
    for (const [, rawName, rawValue] of attributes!.matchAll(ATTRIBUTE)) {
      const attribute = rawName!.toLowerCase()
      const value = decode((rawValue ?? '').replace(/^["']|["']$/g, ''))
      if (/^(on|v-|:|@|#)/.test(attribute) && attribute !== 'v-pre') found.push(`attribute ${attribute} on <${tag}>`)
      if (attribute === 'style' || attribute === 'srcdoc') found.push(`attribute ${attribute} on <${tag}>`)
      const url = value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase()
      if (URL_ATTRIBUTES.has(attribute) && /^(javascript|vbscript|data|livescript):/.test(url)) found.push(`${attribute}="${value.slice(0, 40)}"`)
      // A request the page would make on its own: a resource URL, not a link the reader clicks.
      if (['src', 'srcset', 'poster', 'data'].includes(attribute) && value.includes(marker)) found.push(`${attribute} requests the marker URL`)
    }
  }
  return found
}

/** What in raw page text VitePress reads from other files: includes and snippet lines. */
export function fileReads(markdown: string): string[] {
  const found: string[] = []
  if (/<!--\s*@include:/.test(markdown)) found.push('include directive')
  if (/^[\s>*+\-\d.)]*<<</m.test(markdown)) found.push('snippet import')
  return found
}
