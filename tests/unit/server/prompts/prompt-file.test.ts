import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parsePromptFile } from '../../../../server/prompts/prompt-file.js'
import { PromptLibrary } from '../../../../server/prompts/prompt-library.js'

const good = `---
command: tldr
description: Summarize the page in three bullets
mode: ask
tools: [read_page]
---
Summarize {{page}} in three bullets. {{input}}
`

describe('parsePromptFile', () => {
  it('reads command, description, mode, tools and the template', () => {
    expect(parsePromptFile('tldr.md', good)).toEqual({
      command: 'tldr',
      description: 'Summarize the page in three bullets',
      mode: 'ask',
      tools: ['read_page'],
      template: 'Summarize {{page}} in three bullets. {{input}}',
      file: 'tldr.md',
    })
    const plain = parsePromptFile('x.md', '---\ncommand: x2-y\ndescription: d\n---\nDo {{selection}}\n')
    expect(plain).toEqual({ command: 'x2-y', description: 'd', template: 'Do {{selection}}', file: 'x.md' })
  })

  it('refuses bad YAML with the parser\'s reason', () => {
    expect(() => parsePromptFile('a.md', '---\ncommand: [tldr\ndescription: d\n---\nbody')).toThrow(/not valid YAML/)
  })

  it('refuses ---js front matter without running it', () => {
    const marker = `metablogPromptRan${Date.now()}`
    const text = `---js\n{ command: (globalThis.${marker} = 'tldr'), description: 'd' }\n---\nbody`
    expect(() => parsePromptFile('a.md', text)).toThrow(expect.objectContaining({ code: 'ERR_UNSAFE_CONTENT', message: expect.stringMatching(/YAML front matter only/) }))
    expect((globalThis as Record<string, unknown>)[marker]).toBeUndefined()
    expect(() => parsePromptFile('a.md', '---json\n{"command":"x","description":"d"}\n---\nbody')).toThrow(/YAML front matter only/)
  })

  it('refuses an alias bomb in the front matter', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]']
    for (let level = 1; level < 7; level++) levels.push(`${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(10).fill(`*${String.fromCharCode(96 + level)}`).join(', ')}]`)
    expect(() => parsePromptFile('bomb.md', `---\ncommand: x\ndescription: d\n${levels.join('\n')}\n---\nbody`)).toThrow(/expands to more than/)
  })

  it('refuses unknown tools, bad command names, bad modes, unknown keys and placeholders, no front matter, empty body', () => {
    const cases: [string, RegExp][] = [
      ['---\ncommand: x\ndescription: d\ntools: [read_page, rm_rf]\n---\nbody', /unknown tool "rm_rf"/],
      ['---\ncommand: x\ndescription: d\ntools: read_page\n---\nbody', /"tools" must be a list/],
      ['---\ncommand: Tldr\ndescription: d\n---\nbody', /"command" must be a slash name/],
      ['---\ncommand: /tldr\ndescription: d\n---\nbody', /"command" must be a slash name/],
      ['---\ncommand: 9lives\ndescription: d\n---\nbody', /"command" must be a slash name/],
      ['---\ncommand: 12\ndescription: d\n---\nbody', /"command" must be a slash name/],
      ['---\ncommand: x\n---\nbody', /"description" is required/],
      ['---\ncommand: x\ndescription: d\nmode: yolo\n---\nbody', /"mode" must be ask, plan, auto-edit/],
      ['---\ncommand: x\ndescription: d\ntool: [read_page]\n---\nbody', /unknown front matter key "tool"/],
      ['---\ncommand: x\ndescription: d\n---\nUse {{ input }}', /unknown placeholder \{\{ input \}\}/],
      ['---\ncommand: x\ndescription: d\n---\nUse {{constructor}}', /unknown placeholder/],
      ['command: x\ndescription: d\nbody', /needs front matter/],
      ['---\ncommand: x\ndescription: d\n---\n  \n', /body .* is empty/],
      [`---\ncommand: x\ndescription: d\n---\n${'z'.repeat(70 * 1024)}`, /larger than 64 KiB/],
    ]
    for (const [text, message] of cases) expect(() => parsePromptFile('p.md', text), text.slice(0, 60)).toThrow(message)
  })
})

describe('PromptLibrary', () => {
  let folder: string
  beforeEach(async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-prompts-'))
  })
  afterEach(async () => {
    await fs.rm(folder, { recursive: true, force: true })
  })

  it('loads every good file, reports each bad one and each duplicate command, and reloads when told', async () => {
    await fs.writeFile(path.join(folder, 'a-tldr.md'), good)
    await fs.writeFile(path.join(folder, 'b-tldr-again.md'), good.replace('Summarize the page', 'Another'))
    await fs.writeFile(path.join(folder, 'broken.md'), '---\ncommand: [\n---\nbody')
    await fs.writeFile(path.join(folder, 'readme.txt'), 'not a prompt')
    await fs.writeFile(path.join(folder, 'zh.md'), '---\ncommand: translate-zh\ndescription: 翻译\n---\n把 {{page}} 翻译成中文')
    await fs.mkdir(path.join(folder, 'folder.md'))
    await fs.symlink('/etc/hostname', path.join(folder, 'link.md'))
    const library = new PromptLibrary(folder)
    const loaded = await library.load()
    expect(loaded.prompts.map((prompt) => [prompt.command, prompt.file])).toEqual([
      ['tldr', 'a-tldr.md'],
      ['translate-zh', 'zh.md'],
    ])
    expect(loaded.problems).toEqual([
      { file: 'b-tldr-again.md', message: expect.stringMatching(/\/tldr is already defined by a-tldr.md/) },
      { file: 'broken.md', message: expect.stringMatching(/not valid YAML/) },
      { file: 'folder.md', message: expect.stringMatching(/not a regular file/) },
      { file: 'link.md', message: expect.stringMatching(/not a regular file/) },
    ])
    await fs.rm(path.join(folder, 'a-tldr.md'))
    expect(await library.load()).toBe(loaded)
    library.invalidate()
    expect((await library.load()).prompts.map((prompt) => prompt.file)).toEqual(['b-tldr-again.md', 'zh.md'])
  })

  it('is empty when the folder does not exist', async () => {
    expect(await new PromptLibrary(path.join(folder, 'missing')).load()).toEqual({ prompts: [], problems: [] })
  })

  it('knows which files it reads: .md files right in its folder', () => {
    const library = new PromptLibrary(folder)
    expect(library.isPromptFile(path.join(folder, 'x.md'))).toBe(true)
    expect(library.isPromptFile(path.join(folder, '.x.md.swp'))).toBe(false)
    expect(library.isPromptFile(path.join(folder, 'sub', 'x.md'))).toBe(false)
    expect(library.isPromptFile(folder)).toBe(false)
    expect(library.isPromptFile(path.join(folder, '..', 'x.md'))).toBe(false)
    expect(library.isPromptFile(`${folder}-other/x.md`)).toBe(false)
  })
})
