import { describe, expect, it } from 'vitest'
import { explainSkill } from '../../../../client/skills/explain'
import { createBlog, runSkill, scriptedModel } from './skill-harness'

const page = '# Code\n\n```ts\nconst cache = new Map()\n```\n\nText.\n\n```sh\nnpm test\n```\n'

describe('explain skill', () => {
  it('explains the selection when there is one', async () => {
    const blog = createBlog({ 'a.md': { title: 'Code', content: page } })
    const model = scriptedModel(['It stores things.'])
    const run = await runSkill(explainSkill, { inputs: { text: '/explain', currentFile: 'a.md', selectedText: 'x => x * 2' }, api: blog.api, model })
    const prompt = String(model.calls[0]!.messages.at(-1)!.content)
    expect(prompt).toContain('```\nx => x * 2\n```')
    expect(prompt).not.toContain('new Map')
    expect(run.replies).toEqual(['It stores things.'])
  })

  it('explains the page’s code blocks when nothing is selected', async () => {
    const blog = createBlog({ 'a.md': { title: 'Code', content: page } })
    const model = scriptedModel(['Two blocks.'])
    await runSkill(explainSkill, { inputs: { text: '/explain', currentFile: 'a.md' }, api: blog.api, model })
    const prompt = String(model.calls[0]!.messages.at(-1)!.content)
    expect(prompt).toContain('```ts\nconst cache = new Map()\n```')
    expect(prompt).toContain('```sh\nnpm test\n```')
  })

  it('says what to do when there is no code', async () => {
    const blog = createBlog({ 'b.md': { title: 'Prose', content: '# Prose\n\nNo code.\n' } })
    const withPage = await runSkill(explainSkill, { inputs: { text: '/explain', currentFile: 'b.md' }, api: blog.api, model: scriptedModel([]) })
    expect(withPage.error).toMatchObject({ code: 'ERR_NO_CODE', message: expect.stringMatching(/Select the code/) })
    const withoutPage = await runSkill(explainSkill, { inputs: { text: '/explain' }, api: blog.api, model: scriptedModel([]) })
    expect(withoutPage.error).toMatchObject({ code: 'ERR_NO_CODE' })
  })
})
