import { describe, expect, it } from 'vitest'
import { SUMMARY_BUDGET, summarizeSkill } from '../../../../client/skills/summarize'
import { createBlog, runSkill, scriptedModel } from './skill-harness'

const post = `---
title: "Caching"
description: "Old description."
---

# Caching

A cache keeps answers to expensive questions close to where they are asked.

## Invalidation

Invalidation decides when a cached answer stops being true.
`

const longPost = `---
title: "Long"
---

${Array.from({ length: 3 }, (_, part) => `## Part ${part}\n\n${`Sentence number ${part} of the long post goes on. `.repeat(Math.ceil(SUMMARY_BUDGET / 60))}\n\n`).join('')}`

const messageText = (request: { messages: { content?: unknown }[] }) => request.messages.map((message) => String(message.content)).join('\n')

describe('summarize skill', () => {
  it('without a model, replies with a labelled extractive summary and leaves the page alone', async () => {
    const blog = createBlog({ 'posts/cache.md': { content: post, title: 'Caching', description: 'Old description.' } })
    const run = await runSkill(summarizeSkill, { inputs: { text: '/summarize', currentFile: 'posts/cache.md' }, api: blog.api })
    expect(run.error).toBeUndefined()
    expect(run.replies).toHaveLength(1)
    expect(run.replies[0]).toContain('**Extractive summary (no model configured)** of [Caching](/posts/cache)')
    expect(run.replies[0]).toContain('- A cache keeps answers to expensive questions close to where they are asked.')
    expect(run.outputs.get('save-description')).toBeNull()
    expect(run.proposals).toEqual([])
    expect(blog.content('posts/cache.md')).toBe(post)
  })

  it('finds the page named by a hint through search, and says what to do when nothing matches', async () => {
    const blog = createBlog(
      { 'posts/cache.md': { content: post, title: 'Caching' } },
      { search: (query) => (query === 'caching' ? [{ path: 'posts/cache.md', title: 'Caching', score: 1, snippet: '' }] : []) },
    )
    const found = await runSkill(summarizeSkill, { inputs: { text: 'summarize the post about caching', params: { pageHint: 'caching' } }, api: blog.api })
    expect(found.outputs.get('read')).toMatchObject({ path: 'posts/cache.md', title: 'Caching' })
    const missing = await runSkill(summarizeSkill, { inputs: { text: 'summarize the post about rust', params: { pageHint: 'rust' } }, api: blog.api })
    expect(missing.error).toMatchObject({ code: 'ERR_PAGE_NOT_FOUND' })
    const none = await runSkill(summarizeSkill, { inputs: { text: '/summarize' }, api: blog.api })
    expect(none.error).toMatchObject({ code: 'ERR_NO_PAGE' })
    expect((none.error as Error).message).toMatch(/Open the page/)
  })

  it('streams a model summary of a short page in one call', async () => {
    const blog = createBlog({ 'posts/cache.md': { content: post, title: 'Caching' } })
    const model = scriptedModel(['Caches trade memory for speed.\n\n- Invalidation is hard.'])
    const run = await runSkill(summarizeSkill, { inputs: { text: '/summarize', currentFile: 'posts/cache.md' }, api: blog.api, model })
    expect(model.calls).toHaveLength(1)
    expect(messageText(model.calls[0]!)).toContain('A cache keeps answers')
    expect(run.replies[0]).toBe('**Summary of [Caching](/posts/cache)**\n\nCaches trade memory for speed.\n\n- Invalidation is hard.')
    expect(run.outputs.get('summarize')).toMatchObject({ sentence: 'Caches trade memory for speed.', method: 'model' })
  })

  it('summarizes a long page in parts, and a resume pays only for the parts not yet done', async () => {
    const blog = createBlog({ 'posts/long.md': { content: longPost, title: 'Long' } })
    const first = scriptedModel(['- part one', '- part two', new Error('upstream died')])
    const interrupted = await runSkill(summarizeSkill, { inputs: { text: '/summarize', currentFile: 'posts/long.md' }, api: blog.api, model: first })
    expect((interrupted.error as Error).message).toBe('upstream died')
    expect(interrupted.progress).toEqual(['Summarizing part 1 of 3', 'Summarizing part 2 of 3', 'Summarizing part 3 of 3'])
    for (const call of first.calls) expect(messageText(call).length).toBeLessThan(SUMMARY_BUDGET + 1000)

    const second = scriptedModel(['- part three', 'The whole post, in one sentence. More.'])
    const resumed = await runSkill(summarizeSkill, { inputs: { text: '/summarize', currentFile: 'posts/long.md' }, api: blog.api, model: second, resume: interrupted })
    expect(resumed.error).toBeUndefined()
    expect(second.calls).toHaveLength(2)
    expect(messageText(second.calls[0]!)).toContain('Part 3 of 3')
    const combine = messageText(second.calls[1]!)
    expect(combine).toContain('Part 1:\n- part one')
    expect(combine).toContain('Part 3:\n- part three')
    expect(combine).not.toContain('Sentence number')
    expect(resumed.replies[0]).toContain('The whole post, in one sentence.')
  })

  it('continues a summary that was streaming when the task stopped, without repeating it', async () => {
    const blog = createBlog({ 'posts/cache.md': { content: post, title: 'Caching' } })
    const first = scriptedModel([new Error('tab closed')])
    const interrupted = await runSkill(summarizeSkill, { inputs: { text: '/summarize', currentFile: 'posts/cache.md' }, api: blog.api, model: first })
    interrupted.partial = { stepId: 'summarize', text: JSON.stringify({ parts: [], text: 'Caches trade' }) }
    const second = scriptedModel([' memory for speed.'])
    const resumed = await runSkill(summarizeSkill, { inputs: { text: '/summarize', currentFile: 'posts/cache.md' }, api: blog.api, model: second, resume: interrupted })
    expect(messageText(second.calls[0]!)).toContain('Continue exactly where it stops')
    expect(resumed.outputs.get('summarize')).toMatchObject({ text: 'Caches trade memory for speed.' })
    expect(resumed.replies[0]).toContain('Caches trade memory for speed.')
  })

  it('saves the one-sentence summary as the description after approval', async () => {
    const blog = createBlog({ 'posts/cache.md': { content: post, title: 'Caching', description: 'Old description.' } })
    const model = scriptedModel(['Caches trade memory for speed. Second sentence.\n\n- point'])
    const run = await runSkill(summarizeSkill, {
      inputs: { text: 'summarize this post and save it as the description', params: { pageHint: 'this post and save it as the description' }, currentFile: 'posts/cache.md' },
      api: blog.api,
      model,
    })
    expect(run.error).toBeUndefined()
    expect(run.proposals).toEqual([
      { kind: 'description', path: 'posts/cache.md', summary: expect.any(String), before: 'Old description.', after: 'Caches trade memory for speed.' },
    ])
    expect(blog.content('posts/cache.md')).toContain('description: "Caches trade memory for speed."')
    expect(blog.content('posts/cache.md')).not.toContain('Old description.')
  })

  it('keeps the old description when the author rejects the new one', async () => {
    const blog = createBlog({ 'posts/cache.md': { content: post, title: 'Caching' } })
    const run = await runSkill(summarizeSkill, { inputs: { text: '总结并保存', currentFile: 'posts/cache.md' }, api: blog.api, model: scriptedModel(['一句话总结。其他。']), decisions: [{ action: 'reject' }] })
    expect(run.proposals[0]).toMatchObject({ kind: 'description', after: '一句话总结。' })
    expect(run.said).toContain('Kept the old description.')
    expect(blog.content('posts/cache.md')).toBe(post)
  })

  describe('when the author changed the page while the summary was made', () => {
    const request = { text: '/summarize and save', currentFile: 'posts/cache.md' }
    const upToSummary = { ...summarizeSkill, steps: summarizeSkill.steps.slice(0, 2) }

    it('re-applies the description on the newer text if the author says so', async () => {
      const blog = createBlog({ 'posts/cache.md': { content: post, title: 'Caching' } })
      const summarized = await runSkill(upToSummary, { inputs: request, api: blog.api, model: scriptedModel(['Short. More.']) })
      blog.edit('posts/cache.md', `${post}\nThe author's new line.\n`)
      const run = await runSkill(summarizeSkill, { inputs: request, api: blog.api, resume: summarized, conflicts: ['reapply'] })
      expect(run.conflicts).toHaveLength(1)
      expect(blog.content('posts/cache.md')).toContain("The author's new line.")
      expect(blog.content('posts/cache.md')).toContain('description: "Short."')
    })

    it('drops it and keeps the author’s text if the author says so', async () => {
      const blog = createBlog({ 'posts/cache.md': { content: post, title: 'Caching' } })
      const summarized = await runSkill(upToSummary, { inputs: request, api: blog.api, model: scriptedModel(['Short. More.']) })
      blog.edit('posts/cache.md', 'The author rewrote it.\n')
      const run = await runSkill(summarizeSkill, { inputs: request, api: blog.api, resume: summarized, conflicts: ['drop'] })
      expect(run.outputs.get('save-description')).toBeNull()
      expect(blog.content('posts/cache.md')).toBe('The author rewrote it.\n')
    })
  })
})
