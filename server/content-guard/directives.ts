// VitePress reads other files into a page from its raw source, before Markdown and whether or not
// the line is code: `<!--@include: path-->` anywhere, and `<<<` snippet lines. A model may not
// add either: the path could be `../.env`, and rewriting the line would change what the page says.
import { preview } from './front-matter-rules.js'
import type { Refusal } from './verdict.js'

// VitePress's own pattern, without the lazy path: `\s*` may span lines, so the check does too.
const INCLUDE = /<!--\s*@include:/g
const SNIPPET = /^[\s>*+\-\d.)]*<<</

/** The first include or snippet import that a changed line takes part in, or null. */
export function judgeDirectives(lines: readonly string[], changed: ReadonlySet<number>): Refusal | null {
  const text = lines.join('\n')
  const starts: number[] = []
  let offset = 0
  for (const line of lines) {
    starts.push(offset)
    offset += line.length + 1
  }
  const lineAt = (position: number) => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (starts[middle]! <= position) low = middle
      else high = middle - 1
    }
    return low
  }
  for (const match of text.matchAll(INCLUDE)) {
    const first = lineAt(match.index)
    const last = lineAt(match.index + match[0].length - 1)
    for (let line = first; line <= last; line++) {
      if (!changed.has(line)) continue
      return {
        line: line + 1,
        construct: 'include',
        message: `line ${line + 1}: \`<!--@include:\` makes VitePress copy another file (such as .env) into the page, even inside code; found \`${preview(lines[line]!)}\`. Describe the file or quote its text instead.`,
      }
    }
  }
  for (const line of changed) {
    if (!SNIPPET.test(lines[line] ?? '')) continue
    return {
      line: line + 1,
      construct: 'snippet',
      message: `line ${line + 1}: a line starting with \`<<<\` makes VitePress import a file into the page (a code snippet); found \`${preview(lines[line]!)}\`. Paste the code in a fenced block instead.`,
    }
  }
  return null
}
