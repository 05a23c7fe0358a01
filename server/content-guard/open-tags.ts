// Raw HTML in a paragraph may span lines: an author's line ending in `<a href="` makes the next line
// part of that tag. A changed line there could add `onclick=` or a `javascript:` URL without writing
// a single `<`, so the guard refuses such a line.
import { preview } from './front-matter-rules.js'
import type { LineKind } from './layout.js'
import type { Refusal } from './verdict.js'

const TAG_OPENER = /<[A-Za-z][A-Za-z0-9-]*/g

/** Whether `line`, starting inside a tag or not, ends inside one (between `<name` and its `>`, quotes respected). */
export function endsInsideTag(line: string, inside: boolean): boolean {
  let open = inside
  let quote: string | null = null
  let index = 0
  while (index < line.length) {
    const character = line[index]!
    if (open) {
      if (quote) {
        if (character === quote) quote = null
      } else if (character === '"' || character === "'") quote = character
      else if (character === '>') open = false
      index++
      continue
    }
    TAG_OPENER.lastIndex = index
    const opener = TAG_OPENER.exec(line)
    if (!opener) break
    open = true
    index = opener.index + opener[0].length
  }
  return open
}

/** The first changed line that would continue a tag an unchanged line left open, or null. */
export function judgeOpenTags(lines: readonly string[], kinds: readonly LineKind[], changed: ReadonlySet<number>): Refusal | null {
  let inside = false
  let opener = -1
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    // Inline HTML ends with its paragraph: a blank line, code or front matter closes whatever was open.
    if (kinds[index] !== 'text' || line.trim() === '') {
      inside = false
      continue
    }
    if (inside && changed.has(index)) {
      return {
        line: index + 1,
        construct: 'tag-continuation',
        message: `line ${index + 1}: line ${opener + 1} leaves an HTML tag open (\`${preview(lines[opener]!)}\`), so this line would become part of that tag. Close the tag on line ${opener + 1} or leave a blank line before the new text.`,
      }
    }
    // A changed line is made inert (no `<` left to open a tag), so only unchanged lines can leave one open.
    const next: boolean = changed.has(index) ? false : endsInsideTag(line, inside)
    if (next && !inside) opener = index
    inside = next
  }
  return null
}
