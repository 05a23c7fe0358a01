// The content guard: every page write passes here before it reaches the disk. It judges only what the
// write adds or changes (line by line, against the page as it is now), so the author's own text is
// kept byte for byte. What can be made inert without changing its meaning is rewritten and reported;
// what cannot (code-running front matter, file includes, Vue code, edits inside the author's raw
// HTML) refuses the whole write. Pure: no Node, Vite or DOM, so the page can run it too.
import { plainFenceLine, isVueFence } from './fence-info.js'
import { judgeDirectives } from './directives.js'
import { judgeFrontMatterBlock, preview } from './front-matter-rules.js'
import { isCode, layoutOf, type Layout } from './layout.js'
import { lineChanges, splitLines, joinLines, type LineChanges, type PageLines } from './lines.js'
import { liveConstructs } from './live-constructs.js'
import { judgeOpenTags } from './open-tags.js'
import { inertIndentedCode, inertTextLine, type LineScan } from './text-line.js'
import type { Neutralization, NeutralizedConstruct, Refusal, Verdict } from './verdict.js'

export type { Neutralization, NeutralizedConstruct, Refusal, RefusedConstruct, Verdict } from './verdict.js'

/**
 * Judges `next`, the full new text of a page whose current text is `current` (null: a new page).
 * Returns the text to store (possibly rewritten, with what was neutralized) or a refusal.
 */
export function guardContent(current: string | null, next: string): Verdict {
  const page = splitLines(next)
  const before = current === null ? null : splitLines(current).lines
  const changes = lineChanges(before, page.lines)
  if (changes.changed.size === 0) return { ok: true, content: next, neutralized: [] }
  const layout = layoutOf(page.lines)
  const refusal =
    judgeDirectives(page.lines, changes.changed) ??
    (layout.frontMatter ? judgeFrontMatterBlock(page.lines, layout.frontMatter, changes.changed) : null) ??
    judgeStructure(page.lines, layout, changes, before) ??
    judgeOpenTags(page.lines, layout.kinds, changes.changed)
  if (refusal) return { ok: false, ...refusal }
  const loose = rewritten(page, layout, changes.changed, false)
  // Only a code span kept as written needs the whole-page check: markdown-it may not read it as code.
  if (!loose.trusted) return { ok: true, content: loose.content, neutralized: loose.neutralized }
  // The strict pass trusts no code span on a changed line; more live constructs in the loose one mean
  // a "code span" there was not one, so the strict text is stored.
  const strict = rewritten(page, layout, changes.changed, true)
  const chosen = liveConstructs(loose.content) <= liveConstructs(strict.content) ? loose : strict
  return { ok: true, content: chosen.content, neutralized: chosen.neutralized }
}

function rewritten(page: PageLines, layout: Layout, changed: ReadonlySet<number>, strict: boolean) {
  const scan: LineScan = { strict, found: new Set(), trusted: false }
  const neutralized: Neutralization[] = []
  const lines = rewrite(page, layout, changed, scan, neutralized)
  return { content: joinLines({ lines, separators: page.separators }), neutralized, trusted: scan.trusted }
}

/** Refusals that depend on the page's block structure: Vue fences, the author's HTML, exposed code. */
function judgeStructure(lines: readonly string[], layout: Layout, changes: LineChanges, before: string[] | null): Refusal | null {
  const { changed } = changes
  for (const fence of layout.fences) {
    const raw = lines[fence.open]!
    if (!isVueFence(raw) && !isVueFence(fence.info)) continue
    for (let line = fence.open; line < fence.end; line++) {
      if (!changed.has(line)) continue
      return {
        line: line + 1,
        construct: 'vue-fence',
        message: `line ${line + 1}: a \`-vue\` code fence (opened on line ${fence.open + 1}: \`${preview(raw)}\`) is compiled as a Vue template, so its text would run. Use the plain language name (\`html\`, not \`html-vue\`).`,
      }
    }
  }
  for (const [first, end] of layout.htmlBlocks) {
    let mixed = false
    for (let line = first; line < end && !mixed; line++) mixed = !changed.has(line)
    if (!mixed) continue
    for (let line = first; line < end; line++) {
      if (!changed.has(line)) continue
      return {
        line: line + 1,
        construct: 'html-block-edit',
        message: `line ${line + 1}: the change is inside raw HTML the page already has (lines ${first + 1}–${end}), where new text could become part of a tag or script. Leave a blank line between the HTML and the new text.`,
      }
    }
  }
  if (before === null) return null
  const previous = layoutOf(before)
  for (const [line, old] of changes.previous) {
    if (!isCode(previous.kinds[old]) || isCode(layout.kinds[line])) continue
    return {
      line: line + 1,
      construct: 'code-exposed',
      message: `line ${line + 1}: the change ends or removes a code block, so the author's code on this line (\`${preview(lines[line]!)}\`) would be read as Markdown and HTML. Keep the code block's fences as they were.`,
    }
  }
  return null
}

/** The page with every changed line made inert; `neutralized` gets one entry per line and construct. */
function rewrite(page: PageLines, layout: Layout, changed: ReadonlySet<number>, scan: LineScan, neutralized: Neutralization[]): string[] {
  const openings = new Map(layout.fences.map((fence) => [fence.open, fence]))
  return page.lines.map((line, index) => {
    if (!changed.has(index)) return line
    const kind = layout.kinds[index]
    scan.found = new Set<NeutralizedConstruct>()
    let result = line
    if (kind === 'text' || kind === 'html') result = inertTextLine(line, scan)
    else if (kind === 'code') result = inertIndentedCode(line, scan)
    else if (kind === 'fence-open') {
      const fence = openings.get(index)!
      result = plainFenceLine(line, fence.marker, line.slice(line.indexOf(fence.marker) + fence.marker.length))
      if (result !== line) scan.found.add('fence-info')
    }
    for (const construct of scan.found) neutralized.push({ line: index + 1, construct })
    return result
  })
}
