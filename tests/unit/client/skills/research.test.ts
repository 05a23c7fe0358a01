import { describe, expect, it } from 'vitest'
import { researchSkill } from '../../../../client/skills/research'
import { createBlog, runSkill, scriptedModel } from './skill-harness'

const pages = {
  'posts/cache.md': {
    title: 'Caching',
    content: '---\ntitle: Caching\n---\n# Caching\n\nNothing relevant here.\n\nA cache entry with a TTL expires by itself, which is the simplest invalidation.\n',
  },
  'posts/zh.md': { title: '缓存笔记', content: '# 缓存笔记\n\n今天天气不错。\n\n配置缓存的过期时间可以避免脏数据。\n' },
  'posts/tags-only.md': { title: 'Tagged', content: '# Tagged\n\nNo words from the query here.\n' },
}

const hits = [
  { path: 'posts/cache.md', title: 'Caching', score: 3, snippet: 'A cache entry…' },
  { path: 'posts/gone.md', title: 'Gone', score: 2, snippet: 'deleted since' },
  { path: 'posts/tags-only.md', title: 'Tagged', score: 1, snippet: 'Tagged with invalidation.' },
]

describe('research skill', () => {
  it('without a model, quotes the best passages with links, labelled as search results', async () => {
    const blog = createBlog(pages, { search: () => hits })
    const run = await runSkill(researchSkill, { inputs: { text: '/research cache invalidation', params: { query: 'cache invalidation' } }, api: blog.api })
    expect(run.error).toBeUndefined()
    expect(run.replies).toHaveLength(1)
    const reply = run.replies[0]!
    expect(reply).toContain('**Search results (no model configured)**')
    expect(reply).toContain('[Caching](/posts/cache)\n\n> A cache entry with a TTL expires by itself, which is the simplest invalidation.')
    expect(reply).not.toContain('Nothing relevant here')
    // A page found by its tags alone is quoted by its search snippet; a deleted page is skipped.
    expect(reply).toContain('[Tagged](/posts/tags-only)\n\n> Tagged with invalidation.')
    expect(reply).not.toContain('Gone')
  })

  it('says so helpfully when nothing matches, and answers nothing', async () => {
    const blog = createBlog(pages)
    const model = scriptedModel([])
    const run = await runSkill(researchSkill, { inputs: { text: '/research quantum', params: { query: 'quantum' } }, api: blog.api, model })
    expect(run.error).toBeUndefined()
    expect(run.said[0]).toMatch(/I found nothing about "quantum".*\/write quantum/)
    expect(run.outputs.get('answer')).toBeNull()
    expect(model.calls).toEqual([])
  })

  it('with a model, streams an answer from the passages only, with their links to cite', async () => {
    const blog = createBlog(pages, { search: () => [{ path: 'posts/zh.md', title: '缓存笔记', score: 1, snippet: '' }] })
    const model = scriptedModel(['设置过期时间可以避免脏数据（[缓存笔记](/posts/zh)）。'])
    const run = await runSkill(researchSkill, { inputs: { text: '如何配置缓存', intent: 'answer_question', params: { query: '如何配置缓存' } }, api: blog.api, model })
    expect(run.error).toBeUndefined()
    const prompt = model.calls[0]!.messages.map((message) => String(message.content)).join('\n')
    expect(prompt).toContain('[缓存笔记](/posts/zh)')
    expect(prompt).toContain('配置缓存的过期时间可以避免脏数据。')
    expect(prompt).not.toContain('今天天气不错')
    expect(prompt).toMatch(/only the passages/)
    // The answer ends with its own sources list, whatever the model cited.
    expect(run.replies[0]).toBe('设置过期时间可以避免脏数据（[缓存笔记](/posts/zh)）。\n\n**Sources**\n\n1. [缓存笔记](/posts/zh)')
  })

  it('searches for the question’s subject, not its frame, and ends the no-model answer with its sources', async () => {
    const searched: string[] = []
    const blog = createBlog(pages, { search: (query) => (searched.push(query), hits) })
    // The model's parse (or the fallback) may hand over the whole question.
    const run = await runSkill(researchSkill, { inputs: { text: '/research what have I written about cache invalidation?', params: { query: 'what have I written about cache invalidation?' } }, api: blog.api })
    expect(run.error).toBeUndefined()
    expect(searched).toEqual(['cache invalidation'])
    expect(run.replies[0]).toMatch(/\n\n\*\*Sources\*\*\n\n1\. \[Caching\]\(\/posts\/cache\)\n2\. \[Tagged\]\(\/posts\/tags-only\)$/)
  })

  it('gives the model the question as asked, without the slash command', async () => {
    const blog = createBlog(pages, { search: () => hits })
    const model = scriptedModel(['Caches expire ([Caching](/posts/cache)).'])
    await runSkill(researchSkill, { inputs: { text: '/research what have I written about cache invalidation?', params: { query: 'cache invalidation' } }, api: blog.api, model })
    expect(String(model.calls[0]!.messages.at(-1)!.content)).toMatch(/^Question: what have I written about cache invalidation\?\n/)
  })
})
