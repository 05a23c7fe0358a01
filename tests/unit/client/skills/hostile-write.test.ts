import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMarkdownRenderer, disposeMdItInstance, type MarkdownRenderer } from 'vitepress'
import { composeFrontMatter } from '../../../../client/skills/markdown'
import { postBody } from '../../../../client/skills/write-content'
import { guardContent } from '../../../../server/content-guard/index.js'
import { liveConstructs } from '../../../../server/content-guard/live-constructs.js'
import { hostileClasses, instantiate } from '../../../fixtures/hostile/index.js'
import { REPO_ROOT } from '../../../helpers/dev-server.js'
import { fileReads, liveInHtml } from '../../server/content-guard/live-html.js'

const MARKER = 'metablog_write_mark'
let md: MarkdownRenderer

beforeAll(async () => {
  disposeMdItInstance()
  md = await createMarkdownRenderer(REPO_ROOT)
})

afterAll(() => disposeMdItInstance())

const payloads = hostileClasses.flatMap((hostile) => hostile.payloads)

// The write skill's path for a model's post: the client sanitizer, front matter, then the guard
// (which the page runs before sending, and the server again before storing).
const OUTLINE = '# Post\n\n## Why\nThe reason.\n## How\nThe way.\n'

/** The finished post's body: `payload` as the model's text, or its lines as the outline's headings the skeleton inserts. */
function finishedPost(payload: string, where: 'body' | 'outline'): string {
  if (where === 'body') return postBody(payload, OUTLINE, 'Post', true)
  const outline = `# Post\n\n${payload.split('\n').filter((line) => line.trim()).map((line) => `## ${line}`).join('\n')}\n`
  return postBody(Array.from({ length: 40 }, (_, index) => `Paragraph ${index}.`).join('\n\n'), outline, 'Post', true)
}

describe.each(payloads.flatMap((payload) => [{ ...payload, where: 'body' as const }, { ...payload, where: 'outline' as const }]))('a model answering $id to /write, in its $where', ({ text, where }) => {
  it('ends as an inert page, or as a refusal with a line', () => {
    const body = finishedPost(instantiate(text, { marker: MARKER, markDir: '/nonexistent' }), where)
    const verdict = guardContent(null, `${composeFrontMatter({ title: 'Post', draft: true })}\n${body}\n`)
    if (!verdict.ok) {
      expect(verdict.message).toMatch(/^line \d+: /)
      return
    }
    expect(fileReads(verdict.content)).toEqual([])
    expect(liveConstructs(verdict.content)).toBe(0)
    expect(liveInHtml(md.render(verdict.content, { path: `${REPO_ROOT}/page.md`, relativePath: 'page.md', cleanUrls: false }), MARKER)).toEqual([])
    // What the page sends is what the server stores: a second pass changes nothing.
    expect(guardContent(null, verdict.content)).toEqual({ ok: true, content: verdict.content, neutralized: [] })
  })
})
