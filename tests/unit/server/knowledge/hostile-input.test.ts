// Pages and queries built to make a backtracking regular expression take minutes. Every one must
// be read in about the time of an ordinary page of that size: the bound below is many times what
// a linear reading needs and a small fraction of what the quadratic and cubic versions took.
import { describe, expect, it } from 'vitest'
import { parsePage } from '../../../../server/knowledge/parse-page.js'
import { markdownToText } from '../../../../server/knowledge/plain-text.js'
import { SearchIndex } from '../../../../server/knowledge/search-index.js'
import { PATHOLOGICAL, aliasBomb, fill } from '../../../fixtures/pathological-pages.js'

const SIZE = 200_000
const BOUND_MS = 3_000

const hostile: Record<string, string> = {
  'a heading with a long run of blanks': `# a${' '.repeat(SIZE)}b\n`,
  'a heading with blanks before an unclosed id': `## a${' '.repeat(SIZE)}{x\n`,
  'a paragraph of blanks before a letter': `${' '.repeat(SIZE)}x`,
  'tabs and blanks': `${'\t '.repeat(SIZE / 2)}x`,
  'a line of brackets': `# x\n\n${'['.repeat(SIZE)}`,
  'unclosed wiki-links': '[['.repeat(SIZE / 2),
  'unclosed Markdown links': '[a]('.repeat(SIZE / 4),
  'unclosed comments': '<!--'.repeat(SIZE / 4),
  'unclosed tags': '<a '.repeat(SIZE / 3),
  'backticks and letters': '`a'.repeat(SIZE / 2),
}

function elapsed(work: () => unknown): number {
  const started = performance.now()
  work()
  return performance.now() - started
}

const MiB = 1024 * 1024
// Generous for a loaded 2-core CI machine: a linear reading takes well under half of it, the quadratic scanner took minutes.
const TWO_MIB_BOUND_MS = 1_500
// 4× the text may take a little over 4× the time (garbage collection); quadratic would be 16×.
const SCALING_BOUND = 5
// Below this a timing is mostly noise, so the smaller size is never compared as faster than this.
const NOISE_FLOOR_MS = 75

function indexingTime(content: string): number {
  return elapsed(() => SearchIndex.build([parsePage('posts/hostile.md', content)]))
}

describe('2 MiB pathological pages', () => {
  it.each(Object.keys(PATHOLOGICAL))('%s: indexed within the bound, and 4× the text takes about 4× the time', (name) => {
    const make = PATHOLOGICAL[name]!
    const small = make(MiB / 2)
    const large = make(2 * MiB)
    expect(large.length).toBe(2 * MiB)
    // Best of several, the two sizes taking turns: a loaded machine slows runs down, never speeds them up.
    let smallTime = Number.POSITIVE_INFINITY
    let largeTime = Number.POSITIVE_INFINITY
    for (let round = 0; round < 5; round++) {
      smallTime = Math.min(smallTime, indexingTime(small))
      largeTime = Math.min(largeTime, indexingTime(large))
    }
    expect(largeTime).toBeLessThan(TWO_MIB_BOUND_MS)
    expect(largeTime).toBeLessThan(SCALING_BOUND * Math.max(smallTime, NOISE_FLOOR_MS))
  })

  it('an unclosed [[ still leaves later links on the page found', () => {
    const page = parsePage('posts/hostile.md', `${'[['.repeat(1000)} and then [[Real]] and ![[Embedded]]\n`)
    expect(page.links.map((link) => [link.target, link.embed])).toEqual([
      ['Real', false],
      ['Embedded', true],
    ])
  })

  it('a code span still closes on the next run of its own length after unclosed runs of others', () => {
    const page = parsePage('posts/hostile.md', '``` ` `` [[Hidden]] `` [[Shown]]\n')
    expect(page.links.map((link) => link.target)).toEqual(['Shown'])
  })
})

describe('hostile front matter', () => {
  const bombPage = (levels: number) => `---\ntitle: Bomb\n${aliasBomb(levels)}\n---\n# Body\n`

  it('a YAML alias bomb is refused fast and the page is read as if it had no front matter', () => {
    let title = ''
    expect(elapsed(() => (title = parsePage('posts/bomb.md', bombPage(40)).title))).toBeLessThan(500)
    expect(title).toBe('Body')
  })

  it('a bomb with fewer aliases than the count allows is still refused once read (9^11 values)', () => {
    let title = ''
    expect(elapsed(() => (title = parsePage('posts/bomb.md', bombPage(11)).title))).toBeLessThan(500)
    expect(title).toBe('Body')
  })

  it('front matter with thousands of aliases is refused before it is parsed', () => {
    const content = `---\ntitle: Many\nbase: &a x\nlist: [${Array(200_000).fill('*a').join(',')}]\n---\n# Body\n`
    let title = ''
    expect(elapsed(() => (title = parsePage('posts/aliases.md', content).title))).toBeLessThan(200)
    expect(title).toBe('Body')
  })

  it('2 MiB of front matter is refused, the body after it still read', () => {
    const content = fill('key: value\n', 2 * MiB, '---\ntitle: Huge\n', '\n---\n# Body\n')
    let title = ''
    expect(elapsed(() => (title = parsePage('posts/huge.md', content).title))).toBeLessThan(200)
    expect(title).toBe('Body')
  })

  it('a few aliases in ordinary front matter still work', () => {
    const page = parsePage('posts/ok.md', '---\ntitle: &t Fine\naliases: [*t, Other]\n---\nText\n')
    expect(page.title).toBe('Fine')
    expect(page.aliases).toEqual(['Fine', 'Other'])
  })
})

describe('hostile page content', () => {
  it.each(Object.entries(hostile))('%s: indexed and reduced to text without a hang', (_name, content) => {
    expect(elapsed(() => parsePage('posts/hostile.md', content))).toBeLessThan(BOUND_MS)
    expect(elapsed(() => markdownToText(content))).toBeLessThan(BOUND_MS)
  })

  it('a search query of many thousand characters answers instead of failing', () => {
    const index = SearchIndex.build([{ path: 'posts/a.md', title: 'Alpha', tags: [], headings: [], content: 'alpha beta', bodyOffset: 0 }])
    const results = index.search(`alpha-${'x'.repeat(13_000)}`)
    expect(results.map((result) => result.path)).toEqual(['posts/a.md'])
  })
})
