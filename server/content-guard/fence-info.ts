// A fence's info string becomes HTML in VitePress: the language lands in class names and a label, a
// `[title]` becomes a code-group tab label, both unescaped. So only a plain language name and the
// flags VitePress knows are kept.

/** A language name: letters, digits and `_+#.-`, as highlight.js and Shiki name them. */
const LANGUAGE = /^[A-Za-z0-9_+#.-]{0,40}/
const LINE_NUMBERS = /^:(?:no-line-numbers|line-numbers(?:=\d{1,6})?)/
const HIGHLIGHT = /^[ \t]*\{[ \t]*\d{1,6}(?:[ \t]*-[ \t]*\d{1,6})?(?:[ \t]*,[ \t]*\d{1,6}(?:[ \t]*-[ \t]*\d{1,6})?)*[ \t]*\}/

/** A `-vue` fence is compiled as a Vue template (VitePress drops its v-pre): code, not text. */
export function isVueFence(info: string): boolean {
  // markdown-it decodes entities in the info string, so `js&#45;vue` is a -vue fence too.
  const decoded = info.replace(/&#(?:x0*2d|0*45);?|&(?:dash|hyphen);/gi, '-')
  return /-vue/i.test(decoded)
}

/** The info string reduced to `lang[:line-numbers[=N]] [{1,3-5}]`. */
export function plainFenceInfo(info: string): string {
  const trimmed = info.trim()
  const language = LANGUAGE.exec(trimmed)![0]
  let rest = trimmed.slice(language.length)
  const flag = LINE_NUMBERS.exec(rest)?.[0] ?? ''
  rest = rest.slice(flag.length)
  const highlight = HIGHLIGHT.exec(rest)?.[0].trim().replace(/[ \t]+/g, '') ?? ''
  const head = language + flag
  return highlight ? (head ? `${head} ${highlight}` : highlight) : head
}

/** The opening line with its info string reduced; `marker` is the fence's backticks or tildes. */
export function plainFenceLine(line: string, marker: string, info: string): string {
  const start = line.indexOf(marker)
  const plain = plainFenceInfo(info)
  return line.slice(0, start + marker.length) + plain
}
