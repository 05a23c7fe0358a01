import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMarkdownRenderer, disposeMdItInstance, type MarkdownRenderer } from 'vitepress'
import { FileStore } from '../../../../server/file-store.js'
import { findFrontMatter } from '../../../../server/content-guard/front-matter-rules.js'
import { liveConstructs } from '../../../../server/content-guard/live-constructs.js'
import { LockManager } from '../../../../server/locks.js'
import { hostileClasses, instantiate } from '../../../fixtures/hostile/index.js'
import { fileReads, liveInHtml } from './live-html.js'

const MARKER = 'metablog_mark_7c1f'
// An author's page that itself has HTML and {{ }}: an update must keep every byte of it.
const AUTHOR_HEAD = '---\ntitle: Author page\n---\n\n# Author\n\n<div v-pre>{{ author.keeps.this }}</div>\n\n<b>Author HTML</b> and {{ 1 + 1 }}\n\n'
const AUTHOR_TAIL = '\n\nClosing paragraph by the author.\n'
// Constructs that cannot be made inert without changing what they mean: these must be refused.
const MUST_REFUSE = /^(fm_js|fm_javascript|fm_coffee|fm_alias_bomb|fm_js_tag|fm_huge|fm_title_html|fm_hero_html|fm_head_script|include_|snippet_|vue_fence_)/

// Payloads whose harm is not in VitePress's Markdown output (front matter feeds gray-matter, <head>
// and the theme), or that markdown-it already defuses (script URLs, quotes in titles); guarded all the same.
const NOT_LIVE_IN_MARKDOWN = [
  'fm_alias_bomb', 'fm_huge', 'fm_title_html', 'fm_hero_html', 'fm_description_mustache', 'fm_head_script',
  'url_javascript', 'url_javascript_case', 'url_javascript_entity', 'url_vbscript', 'url_data_html', 'url_reference',
  'title_quote_break', 'fence_title_vue_binding',
]

let site: string
let markDir: string
let store: FileStore
let md: MarkdownRenderer

beforeAll(async () => {
  site = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-hostile-'))
  markDir = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-mark-'))
  await fs.writeFile(path.join(site, '.env'), 'OPENAI_API_KEY=sk-canary-do-not-leak\n')
  store = new FileStore({ sourceDir: site, locks: new LockManager() })
  disposeMdItInstance()
  md = await createMarkdownRenderer(site)
})

afterAll(async () => {
  await fs.rm(site, { recursive: true, force: true })
  await fs.rm(markDir, { recursive: true, force: true })
})

function render(markdown: string): string {
  return md.render(markdown, { path: path.join(site, 'page.md'), relativePath: 'page.md', cleanUrls: false })
}

/** Writes `content`; returns the stored text, or the refusal (and checks nothing reached the disk). */
async function attempt(page: string, content: string, hash: string | null): Promise<{ stored: string } | { refused: string }> {
  const before = await fs.readFile(path.join(site, page), 'utf8').catch(() => null)
  try {
    await store.write(page, content, hash === null ? { ifNoneMatch: '*' } : { ifMatch: hash })
  } catch (error) {
    expect(error).toMatchObject({ code: 'ERR_UNSAFE_CONTENT', message: expect.stringMatching(/line \d+: /) })
    expect(await fs.readFile(path.join(site, page), 'utf8').catch(() => null)).toBe(before)
    return { refused: (error as Error).message }
  }
  return { stored: await fs.readFile(path.join(site, page), 'utf8') }
}

/** `part` is what the guard let through; `page` the whole stored page it sits in. */
function expectInert(part: string, page = part): void {
  expect(fileReads(part)).toEqual([])
  expect(findFrontMatter(page.split('\n'))?.language ?? '').toBe('')
  // A leading blank line: a part from the middle of a page is not front matter even if it starts with ---.
  expect(liveInHtml(render(part === page ? part : `\n${part}`), MARKER)).toEqual([])
}

const payloads = hostileClasses.flatMap((hostile) => hostile.payloads.map((payload) => ({ ...payload, className: hostile.name })))

describe('the hostile corpus', () => {
  it('has at least 60 payloads with unique ids, in classes that say what they attack', () => {
    expect(payloads.length).toBeGreaterThanOrEqual(60)
    expect(new Set(payloads.map((payload) => payload.id)).size).toBe(payloads.length)
    for (const payload of payloads) expect(payload.id).toMatch(/^[a-z0-9_]+$/)
    for (const hostile of hostileClasses) expect(hostile.attacks.length).toBeGreaterThan(10)
  })

  it('would be live if written as is: the checks can fail', () => {
    const live = payloads.filter((payload) => {
      const text = instantiate(payload.text, { marker: MARKER, markDir })
      if (fileReads(text).length > 0 || findFrontMatter(text.split('\n'))?.language || liveConstructs(text) > 0) return true
      try {
        return liveInHtml(render(text), MARKER).length > 0
      } catch {
        return true // gray-matter choked on it: an alias bomb or a tag
      }
    })
    expect(payloads.filter((payload) => !live.includes(payload)).map((payload) => payload.id).sort()).toEqual([...NOT_LIVE_IN_MARKDOWN].sort())
  })
})

describe.each(payloads)('$className: $id', ({ id, text: template }) => {
  const text = () => instantiate(template, { marker: MARKER, markDir })

  it('as a new page: refused, or stored inert', async () => {
    const outcome = await attempt(`new-${id}.md`, text(), null)
    if (MUST_REFUSE.test(id)) expect(outcome).toHaveProperty('refused')
    if ('stored' in outcome) {
      expectInert(outcome.stored)
      expect(liveConstructs(outcome.stored)).toBe(0)
    }
  })

  it('added to an author page: refused, or inert with the author’s text byte for byte', async () => {
    const page = `author-${id}.md`
    const author = `${AUTHOR_HEAD}Middle paragraph.${AUTHOR_TAIL}`
    // The author's own page, saved in their editor: it never passed the guard.
    await fs.writeFile(path.join(site, page), author)
    const { hash } = await store.read(page)
    const outcome = await attempt(page, `${AUTHOR_HEAD}${text().trimEnd()}${AUTHOR_TAIL}`, hash)
    if (/^(include_|snippet_|vue_fence_)/.test(id)) expect(outcome).toHaveProperty('refused')
    if (!('stored' in outcome)) return
    expect(outcome.stored.startsWith(AUTHOR_HEAD)).toBe(true)
    expect(outcome.stored.endsWith(AUTHOR_TAIL)).toBe(true)
    expectInert(outcome.stored.slice(AUTHOR_HEAD.length, outcome.stored.length - AUTHOR_TAIL.length), outcome.stored)
    expect(liveConstructs(outcome.stored)).toBe(liveConstructs(author))
  })
})
