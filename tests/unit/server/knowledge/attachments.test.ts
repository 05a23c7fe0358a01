import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { attachmentKind, isAttachmentPath } from '../../../../server/knowledge/attachments.js'
import { KnowledgeIndex } from '../../../../server/knowledge/knowledge-index.js'
import { listSiteFiles } from '../../../../server/knowledge/load-pages.js'

const FILES = [
  'Attachments/bases-noshadow.png',
  'Attachments/old/bases-noshadow.png',
  'Attachments/icons/lucide-table.svg',
  'Bases/Diagram.PNG',
  'Bases/bases-noshadow.png',
  'deep/a/b/c/bases-noshadow.png',
  'talk.mp3',
  'Attachments/café.png',
]

const index = KnowledgeIndex.build([{ path: 'Bases/Intro.md', content: '# Intro\n' }], FILES)
const resolve = (target: string, from = 'Notes/Daily/today.md') => index.resolveAttachment(target, from)

describe('attachment resolution, Obsidian’s rules', () => {
  it('finds a file name anywhere, the shortest path winning (fewer folders, then fewer characters)', () => {
    // Bases/ and Attachments/ are equally deep: the shorter path wins over the folder named for attachments.
    expect(resolve('bases-noshadow.png')).toBe('Bases/bases-noshadow.png')
    expect(resolve('lucide-table.svg')).toBe('Attachments/icons/lucide-table.svg')
    expect(resolve('talk.mp3')).toBe('talk.mp3')
  })

  it('takes an exact path from the site root first, then a path suffix', () => {
    expect(resolve('Attachments/old/bases-noshadow.png')).toBe('Attachments/old/bases-noshadow.png')
    expect(resolve('Bases/bases-noshadow.png')).toBe('Bases/bases-noshadow.png')
    expect(resolve('old/bases-noshadow.png')).toBe('Attachments/old/bases-noshadow.png')
    expect(resolve('icons/lucide-table.svg')).toBe('Attachments/icons/lucide-table.svg')
    expect(resolve('/Attachments/icons/lucide-table.svg')).toBe('Attachments/icons/lucide-table.svg')
  })

  it('ignores case and Unicode normalisation, and surrounding blanks', () => {
    expect(resolve('BASES-NOSHADOW.PNG')).toBe('Bases/bases-noshadow.png')
    expect(resolve('ATTACHMENTS/Bases-NoShadow.png')).toBe('Attachments/bases-noshadow.png')
    expect(resolve(' diagram.png ')).toBe('Bases/Diagram.PNG')
    expect(resolve('cafe\u0301.png')).toBe('Attachments/café.png')
    expect(resolve('attachments/ICONS/Lucide-Table.svg')).toBe('Attachments/icons/lucide-table.svg')
  })

  it('reads ./ and ../ from the page’s folder, never above the site root', () => {
    expect(resolve('./bases-noshadow.png', 'Bases/Intro.md')).toBe('Bases/bases-noshadow.png')
    expect(resolve('../Attachments/icons/lucide-table.svg', 'Bases/Intro.md')).toBe('Attachments/icons/lucide-table.svg')
    expect(resolve('./lucide-table.svg', 'Bases/Intro.md')).toBeNull()
    expect(resolve('../../talk.mp3', 'Bases/Intro.md')).toBeNull()
  })

  it('leaves a missing file unresolved: no partial name, no suffix that is not at a folder boundary', () => {
    expect(resolve('missing-chart.png')).toBeNull()
    expect(resolve('noshadow.png')).toBeNull()
    expect(resolve('ses/bases-noshadow.png')).toBeNull()
  })

  it('tells images, audio, video and PDFs apart; other files are plain files', () => {
    expect(['a.PNG', 'b.svg', 'c.mp3', 'd.webm', 'e.pdf', 'f.zip'].map(attachmentKind)).toEqual(['image', 'image', 'audio', 'video', 'pdf', 'file'])
    expect(isAttachmentPath('Attachments/a.png')).toBe(true)
    for (const hidden of ['.obsidian/a.png', 'a/.trash/b.png', 'node_modules/x/a.png', 'a/b.md', 'a\\b.png', 'a//b.png']) expect(isAttachmentPath(hidden), hidden).toBe(false)
  })
})

describe('the attachment index inside the knowledge index', () => {
  const page = { path: 'Bases/Intro.md', content: '# Intro\n\n![[chart.png|300]] ![[Attachments/old/bases-noshadow.png]] `![[in-code.png]]`\n\n```\n![[fenced.png]]\n```\n' }

  it('lists a missing attachment in the graph’s unresolved links, once per page, and nothing in code', () => {
    const live = KnowledgeIndex.build([page, { path: 'b.md', content: '![[chart.png]] ![[chart.png]]' }], FILES)
    expect(live.unresolved()).toEqual([
      { source: 'Bases/Intro.md', target: 'chart.png', kind: 'attachment' },
      { source: 'b.md', target: 'chart.png', kind: 'attachment' },
    ])
    expect(live.graph().edges).toEqual([])
  })

  it('re-resolves the links to a file as it comes and goes: only the pages embedding it re-render', () => {
    const live = KnowledgeIndex.build([page, { path: 'other.md', content: '![[talk.mp3]]' }], FILES)
    const added = live.attachmentChanged('Attachments/chart.png', true)
    expect(added).toMatchObject({ relinked: ['Bases/Intro.md'], graphChanged: true })
    expect(live.unresolved()).toEqual([])
    expect(live.resolveAttachment('chart.png', 'other.md')).toBe('Attachments/chart.png')
    // A shorter path with the same name takes over; a longer one changes nothing.
    expect(live.attachmentChanged('chart.png', true).relinked).toEqual(['Bases/Intro.md'])
    expect(live.attachmentChanged('deep/er/chart.png', true)).toMatchObject({ relinked: [], graphChanged: false })
    expect(live.attachmentChanged('chart.png', false).relinked).toEqual(['Bases/Intro.md'])
    live.attachmentChanged('Attachments/chart.png', false)
    expect(live.resolveAttachment('chart.png', 'other.md')).toBe('deep/er/chart.png')
    live.attachmentChanged('deep/er/chart.png', false)
    expect(live.unresolved()).toEqual([{ source: 'Bases/Intro.md', target: 'chart.png', kind: 'attachment' }])
    expect(live.linkedAttachments()).toEqual(['Attachments/old/bases-noshadow.png', 'talk.mp3'])
  })

  it('ends with the same state as a fresh build after any sequence of changes', () => {
    const live = KnowledgeIndex.build([page], FILES)
    live.attachmentChanged('chart.png', true)
    live.upsert('c.md', '![[chart.png]] ![[nowhere.gif]]')
    live.attachmentChanged('Attachments/old/bases-noshadow.png', false)
    live.remove('c.md')
    live.upsert('c.md', '![[CHART.png]]')
    const fresh = KnowledgeIndex.build([page, { path: 'c.md', content: '![[CHART.png]]' }], [...FILES.filter((file) => file !== 'Attachments/old/bases-noshadow.png'), 'chart.png'])
    expect(live.snapshot()).toEqual(fresh.snapshot())
    expect(live.unresolved()).toEqual([{ source: 'Bases/Intro.md', target: 'Attachments/old/bases-noshadow.png', kind: 'attachment' }])
  })
})

describe('listSiteFiles: attachments', () => {
  let root: string
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-attachments-'))
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-outside-'))
    for (const file of ['Attachments/a.png', 'Attachments/icons/b.svg', '.obsidian/c.png', 'node_modules/d.png', 'page.md', 'notes.txt']) {
      await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true })
      await fs.writeFile(path.join(root, file), 'x')
    }
    await fs.writeFile(path.join(outside, 'secret.png'), 'secret')
    await fs.symlink(path.join(outside, 'secret.png'), path.join(root, 'Attachments/linked.png'))
    await fs.symlink(outside, path.join(root, 'linked-folder'))
  })
  afterAll(() => fs.rm(root, { recursive: true, force: true }))

  it('lists attachment files, skipping dot-folders, node_modules and every symlink', async () => {
    expect((await listSiteFiles(root)).attachments).toEqual(['Attachments/a.png', 'Attachments/icons/b.svg'])
  })
})
