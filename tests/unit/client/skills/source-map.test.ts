// Random selections of what the site renders map back to Markdown whose rendering is that selection.
import { decodeHTML } from 'entities'
import { beforeAll, describe, expect, it } from 'vitest'
import { createMarkdownRenderer, disposeMdItInstance, type MarkdownRenderer } from 'vitepress'
import { foldSelection, locateSelection } from '../../../../client/skills/locate'
import { renderedText } from '../../../../client/skills/source-map/rendered-text'
import { wikiLinkPlugin } from '../../../../plugin/markdown/wiki-link-rule.js'
import { KnowledgeIndex } from '../../../../server/knowledge/knowledge-index.js'
import { REPO_ROOT } from '../../../helpers/dev-server.js'

const SITE = KnowledgeIndex.build(
  [
    { path: 'posts/atomic-file-writes.md', content: '---\ntitle: Atomic file writes in Node.js\n---\n' },
    { path: 'zh/知识图谱.md', content: '# 关于知识图谱\n' },
  ],
  ['Attachments/diagram.png', 'slides.pdf'],
)
const FROM = 'posts/current.md'
const targets = {
  titleOf: (target: string) => SITE.resolve(target, FROM)?.title ?? null,
  hasAttachment: (target: string) => SITE.resolveAttachment(target, FROM) !== null,
}

// Every construct the page renders differently from its source, each in a few contexts.
const CORPUS = [
  'Any tool that rewrites files has to answer one question. With a naive `fs.writeFile` the answer is "a truncated file". This post explains [[#Why rename is atomic]].',
  'See [[atomic-file-writes]], [[atomic-file-writes|the atomic post]], [[atomic-file-writes#Write, fsync, rename]] and [[Atomic file writes in Node.js#^summary]] or [[missing-page^block]].',
  'Embeds: ![[atomic-file-writes]] then ![[atomic-file-writes#Write, fsync, rename]], ![[Attachments/diagram.png|A diagram|300]], [[slides.pdf|the slides]] and ![[gone.png]].',
  'Use `fs.rename` or ``a `tick` inside`` with ` padded ` code, then [a link](https://example.com/x "title") and [a reference][ref] and <https://example.com/auto>.\n\n[ref]: /reference',
  'Some *emphasis*, **strong**, ***both***, _under_ and __dunder__, ~~strike~~, snake_case_name, 2 * 3 * 4 and **[[atomic-file-writes|bold link]]** end.',
  'A footnote ref[^1] and a note [^note] here.\n\n[^1]: The footnote text.',
  'Entities: &amp; &lt;tag&gt; &copy; &#169; &#x2014; a&nbsp;b and \\*escaped\\* \\[brackets\\] stars.',
  '中文段落，包含标点：“引号”、《书名》以及**强调**。还有[[知识图谱|知识图谱]]和`代码`！\n第二行继续，[[zh/知识图谱]]。',
  '中文**“引用”**中文，以及*（括号）*和 **粗体**。',
  'Inline <kbd>Ctrl</kbd> + <kbd>C</kbd> and a line<br>break, a hard break  \nafter two spaces, an image ![alt text](/a.png) inline.',
  '# Heading with `code`\n\n- item one with *em*\n- item [[atomic-file-writes]] two\n\n> quoted **bold** text\n> over two lines',
  '| Name | Link |\n|---|---|\n| `x` | [[atomic-file-writes\\|alias]] |\n| **y** | a&amp;b |',
  '1. first *step*\n2. second [step](/s)\n\n```\nconst a = 1 * 2\n```\n\nAfter the code.',
  '## Heading with attributes {#custom .big}\n\nA lead paragraph {.lead}\n\nText **bold**{.red} and `code`{.x} end, not {curly} here.',
  'Before the tip.\n\n::: tip Careful\nInside the **tip** with [[atomic-file-writes]].\n:::\n\n::: details\nHidden `code` here.\n:::\n\nAfter.',
]

let md: MarkdownRenderer

beforeAll(async () => {
  disposeMdItInstance()
  md = await createMarkdownRenderer(REPO_ROOT)
  md.use(wikiLinkPlugin, { resolve: (target: string, from: string) => SITE.resolve(target, from), resolveAttachment: (target: string, from: string) => SITE.resolveAttachment(target, from) })
})

const BLOCK_TAG = /<\/?(?:p|li|ul|ol|h[1-6]|blockquote|table|thead|tbody|tr|td|th|pre|div|br|hr)\b[^>]*>/gi

/** The text a reader sees in the site's HTML: tags dropped (blocks as spaces), entities decoded, folded. */
function visibleText(source: string, fold = true): string {
  const html = md.render(source, { relativePath: FROM, cleanUrls: true })
  // Code labels and container titles are left out of a selection (client/components/selection-text.ts).
  const text = html.replace(/<span class="lang">[^<]*<\/span>|<p class="custom-block-title">[^<]*<\/p>|<summary>[^<]*<\/summary>/g, '').replace(BLOCK_TAG, ' ').replace(/<[^>]+>/g, '')
  return fold ? foldSelection(decodeHTML(text)) : decodeHTML(text)
}

// A marker stands in for the character it displaces beside a `*`, `_` or `~` run (a space, punctuation or a
// letter), so the run opens or closes as before; markdown-it trims Unicode spaces at a line's ends: not there.
const MARKERS = ['\u2007', '\u2008', '⁅', '⁆', 'ꙮ', 'Ꙭ']
const DELIMITER = /[*_~]/
function marker(source: string, at: number, side: 0 | 1): string {
  const displaced = DELIMITER.test(source[at] ?? '') ? source[at - 1] : DELIMITER.test(source[at - 1] ?? '') ? source[at] : 'a'
  // The ends of a line or of a table cell.
  const before = source.slice(0, at).split(/\n|(?<!\\)\|/).at(-1)!
  const after = source.slice(at).split(/\n|(?<!\\)\|/)[0]!
  const atLineEdge = /^[\s>*+\-\d.)]*$/.test(before) || after.trim() === ''
  if ((displaced === ' ' || displaced === '\t') && !atLineEdge) return MARKERS[side]!
  if (displaced === undefined || /\s/.test(displaced) || /[\p{P}\p{S}]/u.test(displaced)) return MARKERS[2 + side]!
  return MARKERS[4 + side]!
}

function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let value = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
}

describe('the source map of rendered text', () => {
  it('renders the same text as the site for every construct', () => {
    for (const source of CORPUS) expect(renderedText(source, targets).text, source).toBe(visibleText(source))
  })

  it('maps random selections to a source range whose rendering is the selection (or the constructs it cuts, whole)', () => {
    const next = random(13)
    let checked = 0
    for (const source of CORPUS) {
      const rendered = renderedText(source, targets)
      for (let round = 0; round < 25; round++) {
        const from = Math.floor(next() * rendered.text.length)
        const to = Math.min(rendered.text.length, from + 1 + Math.floor(next() * 40))
        const selection = rendered.text.slice(from, to).trim()
        if (!selection || rendered.text.indexOf(selection) !== rendered.text.lastIndexOf(selection)) continue
        const found = locateSelection(source, selection, targets)
        if ('problem' in found) throw new Error(`${JSON.stringify(selection)} not found in ${JSON.stringify(source)}`)
        // Markers around the range, rendered by the site: what lies between them is what the range renders.
        const marked = `${source.slice(0, found.start)}${marker(source, found.start, 0)}${source.slice(found.start, found.end)}${marker(source, found.end, 1)}${source.slice(found.end)}`
        const between = new RegExp(`[${MARKERS.join('')}](.*)[${MARKERS.join('')}]`, 's').exec(visibleText(marked, false))?.[1]
        const covered = rendered.text.slice(
          rendered.starts.findIndex((start) => start >= found.start),
          rendered.ends.findLastIndex((end) => end <= found.end) + 1,
        )
        expect(foldSelection(between ?? ''), `${JSON.stringify(selection)} in ${JSON.stringify(source)}`).toBe(covered.trim())
        expect(covered).toContain(selection)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(200)
  })

  it('finds the first paragraph of a page whose last words are a same-page heading link', () => {
    const source = '---\ntitle: T\n---\n\n# T\n\nThis post explains [[#Why rename is atomic]].\n\n## Why rename is atomic\n\nBecause.\n'
    const found = locateSelection(source, 'This post explains Why rename is atomic.')
    expect('problem' in found ? found : source.slice(found.start, found.end)).toBe('This post explains [[#Why rename is atomic]].')
    const cheatSheet = 'Wiki-links are double-bracket links. All examples on this page are inside code, so they are shown literally. The real links are in [[#Links in tables]] and at the end.\n'
    const selected = 'Wiki-links are double-bracket links. All examples on this page are inside code, so they are shown literally. The real links are in Links in tables and at the end.'
    expect(locateSelection(cheatSheet, selected)).toEqual({ start: 0, end: cheatSheet.length - 1 })
  })

  it('ignores the zero-width space of a heading anchor and finds text across blocks', () => {
    const source = '## Write, fsync, rename\n\nThe *pattern* is:\n\n1. write a temp file\n2. rename it\n'
    const found = locateSelection(source, 'rename\u200B\nThe pattern is:\nwrite a temp')
    expect('problem' in found ? found : source.slice(found.start, found.end)).toBe('rename\n\nThe *pattern* is:\n\n1. write a temp')
  })
})
