// The dev server reads and parses a blog's pages on a worker thread (server/knowledge/parse-off-thread.ts).
// The worker is a file of the built package (npm run build:plugin), so these load the built modules.
import fs from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KnowledgeIndex as Index } from '../../server/knowledge/knowledge-index.js'
import type { parseOffThread as ParseOffThread } from '../../server/knowledge/parse-off-thread.js'
import { listSiteFiles } from '../../server/knowledge/load-pages.js'
import { parseOffThread as fromSources } from '../../server/knowledge/parse-off-thread.js'
import { syntheticBlog } from '../bench/knowledge-synthetic-blog.js'
import { makeTempDir, REPO_ROOT } from '../helpers/dev-server.js'

const built = (file: string) => import(pathToFileURL(path.join(REPO_ROOT, 'dist/server/knowledge', file)).href)
let KnowledgeIndex: typeof Index
let parseOffThread: typeof ParseOffThread
let blog = ''

beforeAll(async () => {
  ;({ KnowledgeIndex } = await built('knowledge-index.js'))
  ;({ parseOffThread } = await built('parse-off-thread.js'))
  blog = await makeTempDir('parse-off-thread')
  const pages = [
    ...syntheticBlog(700).pages,
    { path: 'notes/embeds.md', content: '---\ntitle: Embeds\naliases: [Pictures]\n---\n\n# Embeds\n\n![[diagram.png]] and [[Missing page]].\n' },
  ]
  for (const page of pages) {
    await fs.mkdir(path.dirname(path.join(blog, page.path)), { recursive: true })
    await fs.writeFile(path.join(blog, page.path), page.content)
  }
  await fs.writeFile(path.join(blog, 'notes/diagram.png'), 'png')
})

afterAll(async () => {
  await fs.rm(blog, { recursive: true, force: true })
})

describe('the knowledge build with its pages parsed on a worker thread', () => {
  it('builds the very index the in-thread build gives, search included, from batches of pages', async () => {
    const files = await listSiteFiles(blog)
    expect(files.attachments).toEqual(['notes/diagram.png'])
    const parsed = await parseOffThread(blog, files.pages)
    expect(parsed).not.toBeNull()
    expect(parsed!.map((page) => page.path)).toEqual(files.pages.map((page) => page.path))
    expect(parsed!.every((page) => page.content === null)).toBe(true)
    const offThread = await KnowledgeIndex.fromParsed(blog, files, parsed!)
    const inThread = await KnowledgeIndex.load(blog)
    expect(offThread.snapshot()).toEqual(inThread.snapshot())
    expect(offThread.graph()).toEqual(inThread.graph())
    const query = syntheticBlog(700).names[3]!.title.split(' ')[0]!
    expect(offThread.search(query).length).toBeGreaterThan(0)
    expect(offThread.search(query)).toEqual(inThread.search(query))
  }, 60_000)

  it('rejects with the reason when the thread cannot read a page (the server then reads them itself)', async () => {
    await fs.mkdir(path.join(blog, 'folder.md'))
    try {
      await expect(parseOffThread(blog, [{ path: 'folder.md', file: 'folder.md' }])).rejects.toThrow(/EISDIR/)
    } finally {
      await fs.rmdir(path.join(blog, 'folder.md'))
    }
  })

  it('is the package’s: run from the TypeScript sources there is no worker file, and it says so with null', async () => {
    expect(fromSources(blog, [])).toBeNull()
    await expect(fs.access(path.join(REPO_ROOT, 'dist/node/parse-worker.js'))).resolves.toBeUndefined()
  })
})
