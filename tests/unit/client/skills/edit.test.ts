import { describe, expect, it } from 'vitest'
import { editSkill } from '../../../../client/skills/edit'
import { createBlog, runSkill, scriptedModel } from './skill-harness'

const page = '# Notes\n\nRun npm install first.\n\n```html\n<p>Old markup</p>\n```\n'

function edit(selectedText: string, answer: string, content = page) {
  const blog = createBlog({ 'posts/notes.md': { title: 'Notes', content } })
  const running = runSkill(editSkill, { inputs: { text: 'rewrite this', currentFile: 'posts/notes.md', selectedText }, api: blog.api, model: scriptedModel([answer]) })
  return { blog, running }
}

describe('edit skill', () => {
  it('makes raw HTML in the model’s replacement inert, and says so on the approval card', async () => {
    const { blog, running } = edit('Run npm install first.', 'Run `npm install` first.<img src=x onerror="alert(1)"><script>steal()</script>')
    const run = await running
    expect(run.error).toBeUndefined()
    expect(run.proposals[0]).toMatchObject({ after: 'Run `npm install` first.&lt;img src=x onerror="alert(1)">', warning: expect.stringMatching(/HTML tags, a script or style block \(removed\); it was made inert/) })
    expect(blog.content('posts/notes.md')).toBe(page.replace('Run npm install first.', 'Run `npm install` first.&lt;img src=x onerror="alert(1)">'))
  })

  it('keeps a rewrite of code inside a code block byte-identical, with no warning', async () => {
    const { blog, running } = edit('<p>Old markup</p>', '<p class="new">New {{ markup }}</p>')
    const run = await running
    expect(run.proposals[0]!.after).toBe('<p class="new">New {{ markup }}</p>')
    expect(run.proposals[0]!.warning).toBeUndefined()
    expect(blog.content('posts/notes.md')).toContain('```html\n<p class="new">New {{ markup }}</p>\n```')
  })

  it('does not let a rewrite at the very start of a page become its front matter', async () => {
    const content = 'First line of a page without front matter.\n'
    const { blog, running } = edit('First line of a page without front matter.', '---\nhead: [["script", {}, "alert(1)"]]\n---\nFirst line.', content)
    await running
    expect(blog.content('posts/notes.md')!.startsWith('---')).toBe(false)
  })

  it('fails with a setup message, not a crash, when there is no model', async () => {
    const blog = createBlog({ 'posts/notes.md': { title: 'Notes', content: page } })
    const run = await runSkill(editSkill, { inputs: { text: 'rewrite', currentFile: 'posts/notes.md', selectedText: 'Run npm install first.' }, api: blog.api, model: null })
    expect(run.error).toMatchObject({ code: 'ERR_LLM_UNCONFIGURED' })
  })
})
