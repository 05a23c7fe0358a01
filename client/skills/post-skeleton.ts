// The shape every drafted post has, whatever the model wrote: the outline's title as the one H1, and
// the outline's sections as `##` headings, inserted where the model's text for them begins.
import { fenceOpening, isClosingFence, termsOf } from './prose'

export interface OutlineSection {
  heading: string
  /** The outline's line(s) on what the section covers. */
  note: string
}

interface Block {
  text: string
  /** 1–6 for an ATX heading, 0 for anything else. */
  level: number
}

const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d+[.)])[ \t]/

/** The outline's `##` sections in order, each with the lines that describe it. */
export function outlineSections(outline: string): OutlineSection[] {
  const sections: OutlineSection[] = []
  for (const line of outline.split(/\r?\n/)) {
    const heading = ATX_HEADING.exec(line)
    if (heading && heading[1]!.length === 2 && heading[2]!.trim()) sections.push({ heading: heading[2]!.trim(), note: '' })
    else if (!heading && sections.length > 0 && line.trim()) sections.at(-1)!.note += `${line.trim()} `
  }
  return sections.map((section) => ({ ...section, note: section.note.trim() }))
}

/** The body's blocks: runs of lines between blank lines, a code fence (blank lines and all) kept whole. */
function blocksOf(body: string): Block[] {
  const blocks: Block[] = []
  let lines: string[] = []
  let fence: string | null = null
  const flush = () => {
    if (lines.length) blocks.push({ text: lines.join('\n'), level: 0 })
    lines = []
  }
  for (const line of body.split(/\r?\n/)) {
    if (fence !== null) {
      lines.push(line)
      if (isClosingFence(line, fence)) fence = null
      continue
    }
    const heading = ATX_HEADING.exec(line)
    if (heading) {
      flush()
      blocks.push({ text: line.trim(), level: heading[1]!.length })
    } else if (line.trim() === '') flush()
    else {
      fence = fenceOpening(line)
      lines.push(line)
    }
  }
  flush()
  return blocks
}

function headingText(block: Block): string {
  return ATX_HEADING.exec(block.text)?.[2]?.trim() ?? ''
}

/** Heading text for comparing: no numbering ("2.", "一、"), no marks, no case. */
function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/^(?:\d+(?:\.\d+)*[.)、:]?|[一二三四五六七八九十]+[、.．])\s*/u, '')
    .replace(/[\p{P}\p{S}\s]+/gu, ' ')
    .trim()
}

/** Whether a heading the model wrote is the outline's section (reworded a little or not at all). */
export function sameHeading(written: string, planned: string): boolean {
  const left = comparable(written)
  const right = comparable(planned)
  if (left === right) return true
  if (Math.min(left.length, right.length) >= 4 && (left.includes(right) || right.includes(left))) return true
  const leftTerms = new Set(termsOf(left))
  const rightTerms = new Set(termsOf(right))
  const shared = [...leftTerms].filter((term) => rightTerms.has(term)).length
  return shared > 0 && shared / Math.max(leftTerms.size, rightTerms.size) >= 0.6
}

/** How much a paragraph is about a section: the section's heading and note terms it contains. */
function affinity(section: OutlineSection, text: string): number {
  const terms = new Set(termsOf(`${section.heading} ${section.note}`))
  if (terms.size === 0) return 0
  const found = new Set(termsOf(text).filter((term) => terms.has(term)))
  return found.size / terms.size
}

/** A heading may go before a paragraph, never between two parts of one list or before an indented continuation. */
function canStartSection(blocks: readonly Block[], index: number): boolean {
  const block = blocks[index]!
  if (block.level > 0 || /^[ \t]/.test(block.text)) return false
  const previous = blocks[index - 1]
  return !(previous && previous.level === 0 && LIST_ITEM.test(block.text) && LIST_ITEM.test(previous.text.split('\n').at(-1) ?? ''))
}

/**
 * Where each missing section starts within blocks [from, to): positions in order, one paragraph at
 * least per section, chosen so the paragraph each section starts at matches it best (ties: spread
 * evenly). After a kept heading the span's first paragraph is that section's own. Sections that get
 * no paragraph (the model wrote fewer paragraphs than sections) are left out: an empty heading is worse.
 */
function placeSections(blocks: readonly Block[], from: number, to: number, sections: readonly OutlineSection[], afterHeading: boolean): Map<number, OutlineSection> {
  const lead = afterHeading ? 1 : 0
  const starts = Array.from({ length: to - from }, (_, offset) => from + offset).filter((index) => index > from - 1 + lead && canStartSection(blocks, index))
  const placed = new Map<number, OutlineSection>()
  const count = Math.min(sections.length, starts.length)
  if (count === 0) return placed
  const score = (section: number, start: number) =>
    affinity(sections[section]!, blocks[starts[start]!]!.text) - Math.abs(start / starts.length - section / count) * 1e-3
  // best[s][k]: the best total with section s starting at starts[k]; previous[s][k]: where section s - 1 started then.
  const best: number[][] = [starts.map((_, start) => score(0, start))]
  const previous: number[][] = [[]]
  for (let section = 1; section < count; section++) {
    best.push([])
    previous.push([])
    for (let start = 0; start < starts.length; start++) {
      let top = -Infinity
      for (let before = 0; before < start; before++) {
        if (best[section - 1]![before]! > top) [top, previous[section]![start]] = [best[section - 1]![before]!, before]
      }
      best[section]![start] = top + score(section, start)
    }
  }
  const last = best[count - 1]!
  let start = last.reduce((top, value, index) => (value > last[top]! ? index : top), 0)
  for (let section = count - 1; section >= 0; section--) {
    placed.set(starts[start]!, sections[section]!)
    start = previous[section]![start] ?? 0
  }
  return placed
}

/** The body with `# title` as its one H1 (replacing the model's own), any later H1 made a section. */
export function withTitle(body: string, title: string): string {
  const blocks = blocksOf(body)
  const first = blocks.findIndex((block) => block.text.trim() !== '')
  const kept = blocks.filter((block, index) => !(index === first && block.level === 1))
  const text = kept.map((block) => (block.level === 1 ? `## ${headingText(block)}` : block.text))
  return [`# ${title}`, ...text].join('\n\n')
}

/**
 * The post's skeleton enforced on the model's body: `# title` first, and every outline section the
 * model dropped inserted as `##` before the paragraph where its text begins. Sections the model kept
 * (even reworded) are anchors and never doubled; its own other headings stay, and a stretch it gave
 * sections of its own gets none of the outline's.
 */
export function enforceSkeleton(body: string, outline: string, title: string): string {
  const blocks = blocksOf(withTitle(body, title))
  const sections = outlineSections(outline)
  // Anchors: the body's headings that are outline sections, matched in order.
  const anchors: { block: number; section: number }[] = []
  let next = 0
  blocks.forEach((block, index) => {
    if (block.level < 2) return
    const found = sections.findIndex((section, at) => at >= next && sameHeading(headingText(block), section.heading))
    if (found < 0) return
    anchors.push({ block: index, section: found })
    next = found + 1
  })
  const inserts = new Map<number, OutlineSection>()
  // Between two anchors (or the title and the first, or the last and the end), place the sections planned there.
  const bounds = [{ block: 0, section: -1 }, ...anchors, { block: blocks.length, section: sections.length }]
  for (let index = 0; index + 1 < bounds.length; index++) {
    const [left, right] = [bounds[index]!, bounds[index + 1]!]
    const missing = sections.slice(left.section + 1, right.section)
    // The model gave this stretch sections of its own (other names): adding the outline's would double them.
    if (blocks.slice(left.block + 1, right.block).some((block) => block.level === 2)) continue
    for (const [at, section] of placeSections(blocks, left.block + 1, right.block, missing, left.section >= 0)) inserts.set(at, section)
  }
  return blocks.flatMap((block, index) => (inserts.has(index) ? [`## ${inserts.get(index)!.heading}`, block.text] : [block.text])).join('\n\n')
}
