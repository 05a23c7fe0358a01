import { describe, expect, it } from 'vitest'
import { graphSkill } from '../../../../client/skills/graph'
import { createBlog, runSkill } from './skill-harness'

const current = '---\ntitle: Home\n---\n# Home\n\nI like Rust Traits and caching strategies. See [[posts/linked|Linked Post]]; more in Linked Post, which it links already.\n\n`Rust Traits` in code.\n'
const pages = {
  'home.md': { title: 'Home', content: current },
  'posts/rust.md': { title: 'Rust Traits', content: '# Rust Traits\n' },
  'posts/cache.md': { title: 'Caching Strategies', content: '# Caching Strategies\n' },
  'posts/linked.md': { title: 'Linked Post', content: '# Linked Post\n\nBack to [[home]].\n' },
}
const graph = {
  nodes: Object.entries(pages).map(([path, page]) => ({ path, title: page.title, tags: [] })),
  edges: [
    { source: 'home.md', target: 'posts/linked.md' },
    { source: 'posts/linked.md', target: 'home.md' },
  ],
  unresolved: [{ source: 'home.md', target: 'Nowhere' }],
}
const linked = current.replace('Rust Traits and caching strategies', '[[posts/rust|Rust Traits]] and [[posts/cache|caching strategies]]')

describe('graph skill', () => {
  it('reports backlinks, links and dead links, then links the unlinked mentions after approval', async () => {
    const blog = createBlog(pages, { graph })
    const run = await runSkill(graphSkill, { inputs: { text: '/graph', currentFile: 'home.md' }, api: blog.api })
    expect(run.error).toBeUndefined()
    expect(run.said[0]).toContain('1 page links here:\n- [Linked Post](/posts/linked)')
    expect(run.said[0]).toContain('`[[Nowhere]]`')
    expect(run.proposals).toEqual([{ kind: 'links', path: 'home.md', summary: 'Link 2 mentions of other posts', before: current, after: linked }])
    expect(blog.content('home.md')).toBe(linked)
    expect(run.outputs.get('apply')).toMatchObject({ linked: 2 })
  })

  it('leaves the page alone when the author rejects the links', async () => {
    const blog = createBlog(pages, { graph })
    const run = await runSkill(graphSkill, { inputs: { text: '/graph', currentFile: 'home.md' }, api: blog.api, decisions: [{ action: 'reject' }] })
    expect(run.said.at(-1)).toBe('Left the page without the new links.')
    expect(blog.content('home.md')).toBe(current)
  })

  it('links the mentions in the author’s newer text after a conflict, or drops them', async () => {
    const blog = createBlog(pages, { graph })
    const suggested = await runSkill({ ...graphSkill, steps: graphSkill.steps.slice(0, 2) }, { inputs: { text: '/graph', currentFile: 'home.md' }, api: blog.api })
    blog.edit('home.md', `New intro.\n\n${current}`)
    const run = await runSkill(graphSkill, { inputs: { text: '/graph', currentFile: 'home.md' }, api: blog.api, resume: suggested, conflicts: ['reapply'] })
    expect(run.conflicts).toHaveLength(1)
    expect(blog.content('home.md')).toBe(`New intro.\n\n${linked}`)

    blog.edit('home.md', current)
    const again = await runSkill({ ...graphSkill, steps: graphSkill.steps.slice(0, 2) }, { inputs: { text: '/graph', currentFile: 'home.md' }, api: blog.api })
    blog.edit('home.md', 'Rewritten.\n')
    await runSkill(graphSkill, { inputs: { text: '/graph', currentFile: 'home.md' }, api: blog.api, resume: again, conflicts: ['drop'] })
    expect(blog.content('home.md')).toBe('Rewritten.\n')
  })

  it('without an open page, reports on the whole blog and suggests nothing', async () => {
    const blog = createBlog(pages, { graph })
    const run = await runSkill(graphSkill, { inputs: { text: '/graph' }, api: blog.api })
    expect(run.said[0]).toContain('**Knowledge graph:** 4 pages, 2 links.')
    expect(run.outputs.get('suggest')).toBeNull()
    expect(run.proposals).toEqual([])
  })
})
