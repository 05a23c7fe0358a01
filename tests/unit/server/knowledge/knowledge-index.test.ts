import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { KnowledgeIndex } from '../../../../server/knowledge/knowledge-index.js'
import { listPagePaths, loadPages } from '../../../../server/knowledge/load-pages.js'
import { syntheticBlog } from '../../../bench/knowledge-synthetic-blog.js'
import { copySite, REPO_ROOT } from '../../../helpers/dev-server.js'
import { until } from '../../../helpers/runtime.js'

const page = (title: string, body = '', extra = '') => `---\ntitle: ${title}\n${extra}---\n\n# ${title}\n\n${body}\n`

function site(pages: Record<string, string>): KnowledgeIndex {
  return KnowledgeIndex.build(Object.entries(pages).map(([path, content]) => ({ path, content })))
}

describe('the demo blog', () => {
  let demo = ''
  afterEach(async () => {
    if (demo) await fs.rm(demo, { recursive: true, force: true })
    demo = ''
  })

  it('has the unresolved link [[Future post about CRDTs]], which a new page resolves, and every page in the graph', async () => {
    // A copy: an author trying the demo may add pages (and unresolved links) to the live folder.
    demo = await copySite(path.join(REPO_ROOT, 'docs'))
    const index = await KnowledgeIndex.load(demo)
    const graph = index.graph()
    const crdts = { source: 'posts/understanding-etags.md', target: 'Future post about CRDTs' }
    expect(graph.unresolved).toContainEqual(crdts)
    for (const link of graph.unresolved) expect(index.resolve(link.target, link.source), link.target).toBeFalsy()
    // Writing the missing page into the copy resolves exactly that link and no other.
    await fs.writeFile(path.join(demo, 'posts/future-post-about-crdts.md'), page('Future post about CRDTs'))
    const after = (await KnowledgeIndex.load(demo)).graph().unresolved
    expect(after).toEqual(graph.unresolved.filter((link) => link.target !== crdts.target))
    expect(graph.nodes.map((node) => node.path)).toEqual(index.paths())
    expect(graph.nodes.length).toBeGreaterThanOrEqual(18)
    expect(index.collisions()).toEqual([])
    // Links by title, by alias, across folders, to a heading, and ordinary Markdown links all land.
    expect(index.backlinks('posts/understanding-etags.md')).toEqual(
      expect.arrayContaining(['notes/markdown-front-matter.md', 'posts/atomic-file-writes.md', 'posts/index.md']),
    )
    expect(index.backlinks('zh/vitepress-personal-blog.md')).toContain('zh/knowledge-graph-backlinks.md')
    expect(graph.edges).toContainEqual({ source: 'zh/llm-streaming-principles.md', target: 'posts/streaming-llm-responses.md', heading: 'Parsing the stream' })
    // The cheat sheet's examples are all in code: only its real links count.
    expect(index.outgoing('notes/wiki-links-cheat-sheet.md').map((link) => link.target)).toEqual([
      '',
      'markdown-front-matter',
      'atomic-file-writes',
      'Writing a markdown-it plugin for wiki-links',
    ])
  })
})

describe("VitePress's own syntax", () => {
  it('[[toc]] is neither a link nor unresolved, in prose or in a heading', () => {
    const index = KnowledgeIndex.build([{ path: 'a.md', content: '# A\n\n[[toc]]\n\n[[TOC]] and [[ toc ]]\n\n## [[toc]]\n' }])
    expect(index.unresolved()).toEqual([])
    expect(index.graph().edges).toEqual([])
  })
})

describe('incremental updates report what changed', () => {
  it('creating a page resolves the links waiting for it', () => {
    const index = site({ 'a.md': page('A', 'See [[Future]] and [[future|later]].'), 'b.md': page('B', 'Nothing.') })
    expect(index.unresolved()).toHaveLength(2)
    const update = index.upsert('notes/future.md', page('The future'))
    expect(update).toEqual({
      relinked: ['a.md'],
      backlinksChanged: ['notes/future.md'],
      affected: ['a.md', 'notes/future.md'],
      graphChanged: true,
      sidebarChanged: true,
    })
    expect(index.backlinks('notes/future.md')).toEqual(['a.md'])
    expect(index.unresolved()).toEqual([])
  })

  it('an edit that changes only prose changes nothing else', () => {
    const index = site({ 'a.md': page('A', 'See [[b]].'), 'b.md': page('B') })
    expect(index.upsert('a.md', page('A', 'Now see [[b]], again.'))).toEqual({
      relinked: [],
      backlinksChanged: [],
      affected: ['a.md'],
      graphChanged: false,
      sidebarChanged: false,
    })
  })

  it('an edit that changes a link moves the backlink', () => {
    const index = site({ 'a.md': page('A', 'See [[b]].'), 'b.md': page('B'), 'c.md': page('C') })
    const update = index.upsert('a.md', page('A', 'See [[c]].'))
    expect(update.backlinksChanged).toEqual(['b.md', 'c.md'])
    expect(update.graphChanged).toBe(true)
    expect(index.backlinks('b.md')).toEqual([])
    expect(index.backlinks('c.md')).toEqual(['a.md'])
  })

  it('retitling a page re-resolves links by the old and the new title, and re-renders its embeds', () => {
    const index = site({
      'a.md': page('A', 'See [[Old Title]].'),
      'b.md': page('B', '![[target]] and [[New Title]]'),
      'target.md': page('Old Title'),
    })
    const update = index.upsert('target.md', page('New Title'))
    expect(index.outgoing('a.md')[0]?.resolved).toBeNull()
    expect(index.outgoing('b.md').map((link) => link.resolved)).toEqual(['target.md', 'target.md'])
    expect(update.relinked).toEqual(['a.md', 'b.md'])
    expect(update.sidebarChanged).toBe(true)
  })

  it('deleting a page leaves its backlinks unresolved, or falls back to the next match', () => {
    const index = site({ 'a.md': page('A', '[[setup]] [[gone]]'), 'setup.md': page('S1'), 'notes/setup.md': page('S2'), 'gone.md': page('G') })
    expect(index.outgoing('a.md').map((link) => link.resolved)).toEqual(['setup.md', 'gone.md'])
    const update = index.remove('setup.md')
    expect(index.outgoing('a.md').map((link) => link.resolved)).toEqual(['notes/setup.md', 'gone.md'])
    expect(update.backlinksChanged).toEqual(['notes/setup.md'])
    index.remove('gone.md')
    expect(index.unresolved()).toEqual([{ source: 'a.md', target: 'gone' }])
  })

  it('renaming keeps links by title, breaks links by the old file name, and reports both', () => {
    const index = site({ 'a.md': page('A', '[[Target Page]] [[target]]'), 'target.md': page('Target Page') })
    const update = index.rename('target.md', 'notes/moved.md')
    expect(index.outgoing('a.md').map((link) => link.resolved)).toEqual(['notes/moved.md', null])
    expect(update.affected).toEqual(['a.md', 'notes/moved.md'])
    expect(index.has('target.md')).toBe(false)
    expect(() => index.rename('nope.md', 'x.md')).toThrow(/no such page/)
  })

  it('a page linking to its own headings has no backlink from itself', () => {
    const index = site({ 'a.md': page('A', '[[#A]] [[a#A]]') })
    expect(index.backlinks('a.md')).toEqual([])
    expect(index.graph().edges).toEqual([])
  })
})

describe('graph', () => {
  it('has one edge per source, target and heading, sorted, and unresolved links once', () => {
    const index = site({
      'b.md': page('B', '[[a]] [[a]] [[a#X]] [x](./a.md) [[nope]] [[nope]]'),
      'a.md': page('A', '', 'tags: [one, two]\n'),
    })
    expect(index.graph()).toEqual({
      nodes: [
        { path: 'a.md', title: 'A', tags: ['one', 'two'] },
        { path: 'b.md', title: 'B', tags: [] },
      ],
      edges: [
        { source: 'b.md', target: 'a.md' },
        { source: 'b.md', target: 'a.md', heading: 'X' },
      ],
      unresolved: [{ source: 'b.md', target: 'nope' }],
    })
  })

  it('is recomputed after a change and reused when nothing changed', () => {
    const index = site({ 'a.md': page('A') })
    const first = index.graph()
    index.upsert('a.md', page('A', 'same links (none)'))
    expect(index.graph()).toBe(first)
    index.upsert('b.md', page('B'))
    expect(index.graph()).not.toBe(first)
    expect(index.graph().nodes).toHaveLength(2)
  })
})

describe('loading pages from a folder', () => {
  let folder: string | undefined
  afterEach(async () => {
    if (folder) await fs.rm(folder, { recursive: true, force: true })
  })

  it('reads every Markdown page, skipping dot-folders and node_modules', async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-knowledge-'))
    const files: Record<string, string> = {
      'index.md': '# Home\n\n[[posts/one]]',
      'posts/one.md': '# One',
      'posts/deep/two.md': '# Two',
      'posts/image.png': 'not a page',
      '.vitepress/theme/x.md': '# hidden',
      'node_modules/pkg/readme.md': '# dependency',
      '.drafts/secret.md': '# hidden too',
    }
    for (const [file, content] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(folder, file)), { recursive: true })
      await fs.writeFile(path.join(folder, file), content)
    }
    expect(await listPagePaths(folder)).toEqual(['index.md', 'posts/deep/two.md', 'posts/one.md'])
    expect((await loadPages(folder)).find((loaded) => loaded.path === 'posts/one.md')?.content).toBe('# One')
    const index = await KnowledgeIndex.load(folder)
    expect(index.backlinks('posts/one.md')).toEqual(['index.md'])
  })
})

describe('an index loaded from a folder', () => {
  let folder = ''
  afterEach(async () => {
    if (folder) await fs.rm(folder, { recursive: true, force: true })
    folder = ''
  })

  it('keeps no page text: search indexes and quotes the file as it is on disk, and a rename reads it at its new name', async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-reader-'))
    await fs.mkdir(path.join(folder, 'posts'))
    await fs.writeFile(path.join(folder, 'posts/fruit.md'), page('Fruit', 'A kumquat is small.'))
    const index = await KnowledgeIndex.load(folder)
    // Changed on disk, not yet told to the index: search reads the file, so it sees the new words.
    await fs.writeFile(path.join(folder, 'posts/fruit.md'), page('Fruit', 'A lime is sour.'))
    expect(index.search('lime').map((result) => result.snippet)).toEqual(['Fruit A lime is sour.'])
    expect(index.search('kumquat')).toEqual([])
    // Moved on disk first, as the dev server sees it: the page's text is read under its new name.
    await fs.rename(path.join(folder, 'posts/fruit.md'), path.join(folder, 'posts/citrus.md'))
    index.rename('posts/fruit.md', 'posts/citrus.md')
    expect(index.resolve('Fruit', 'index.md')?.path).toBe('posts/citrus.md')
    expect(index.search('lime').map((result) => result.path)).toEqual(['posts/citrus.md'])
    await fs.rm(path.join(folder, 'posts/citrus.md'))
    // A page whose file is gone answers with an empty snippet rather than failing.
    expect(index.search('fruit').map((result) => [result.path, result.snippet])).toEqual([['posts/citrus.md', '']])
  })
  it('gives the event loop a turn while it parses and links: no wait as long as the whole build', async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-slices-'))
    const blog = syntheticBlog(3_000)
    for (const page of blog.pages) {
      await fs.mkdir(path.dirname(path.join(folder, page.path)), { recursive: true })
      await fs.writeFile(path.join(folder, page.path), page.content)
    }
    const pages = await loadPages(folder)
    KnowledgeIndex.build(pages) // warm the JIT, as the server is by the time it builds
    const started = performance.now()
    KnowledgeIndex.build(pages)
    const wholeBuild = performance.now() - started
    // The longest stretch without a turn of the event loop while the index loads (reads, parses, links).
    let longest = 0
    let last = performance.now()
    let loading = true
    const tick = () => {
      const now = performance.now()
      longest = Math.max(longest, now - last)
      last = now
      if (loading) setImmediate(tick)
    }
    setImmediate(tick)
    const index = await KnowledgeIndex.load(folder)
    // One more turn measures the stretch that ended with the load.
    await new Promise((resolve) => setImmediate(resolve))
    loading = false
    expect(index.size).toBe(pages.length)
    expect(longest).toBeLessThan(wholeBuild / 2)
  })

  it('holds back between slices for as long as the pause it is given lasts', async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-pause-'))
    for (const page of syntheticBlog(2_000).pages) {
      await fs.mkdir(path.dirname(path.join(folder, page.path)), { recursive: true })
      await fs.writeFile(path.join(folder, page.path), page.content)
    }
    // Something more urgent (the dev API loading) holds the build until it is released.
    let release: () => void = () => undefined
    const urgent = new Promise<void>((resolve) => (release = resolve))
    let pauses = 0
    let done = false
    const loading = KnowledgeIndex.load(folder, async () => {
      pauses++
      await urgent
    }).then((index) => ((done = true), index))
    await until(() => pauses > 0, 20_000, 'the first pause')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(done).toBe(false)
    expect(pauses).toBe(1)
    release()
    expect((await loading).size).toBeGreaterThan(1_900)
    expect(pauses).toBeGreaterThan(1)
  })
})
