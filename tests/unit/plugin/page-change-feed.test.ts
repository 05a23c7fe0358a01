import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PageChangeFeed, type PageChange } from '../../../plugin/page-change-feed.js'
import { hashContent } from '../../../server/hash.js'
import { until } from '../../helpers/runtime.js'

let site: string
let errors: string[]

beforeEach(async () => {
  site = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-feed-'))
  errors = []
})

afterEach(async () => {
  await fs.rm(site, { recursive: true, force: true })
})

describe('PageChangeFeed', () => {
  it('logs a listener that throws, still runs the others, and never fails the writer', async () => {
    const feed = new PageChangeFeed(site, { logError: (message) => errors.push(message) })
    const seen: PageChange[] = []
    feed.subscribe(() => {
      throw new Error('index update exploded')
    })
    feed.subscribe(async () => {
      await Promise.reject(new Error('reload failed'))
    })
    feed.subscribe((change) => void seen.push(change))
    await expect(feed.pageWritten('posts/a.md', 'created', '# A\n')).resolves.toBeUndefined()
    expect(seen.map((change) => change.title)).toEqual(['A'])
    expect(errors).toEqual([expect.stringContaining('index update exploded'), expect.stringContaining('reload failed')])
    expect(errors[0]).toContain('posts/a.md')
  })

  it('awaits its listeners before the writer goes on', async () => {
    const feed = new PageChangeFeed(site)
    let applied = false
    feed.subscribe(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20))
      applied = true
    })
    await feed.pageWritten('posts/a.md', 'created', '# A\n')
    expect(applied).toBe(true)
  })

  it('never lets a slow watcher read land after a newer change to the same page', async () => {
    const page = path.join(site, 'page.md')
    await fs.writeFile(page, '# Old\n')
    let reads = 0
    // The first read starts while the file is old and finishes late, after a newer event.
    const readPage = async (file: string) => {
      const content = await fs.readFile(file, 'utf8')
      if (reads++ === 0) await new Promise((resolve) => setTimeout(resolve, 50))
      return content
    }
    const feed = new PageChangeFeed(site, { readPage })
    const hashes: (string | null)[] = []
    feed.subscribe((change) => void hashes.push(change.hash))
    const slow = feed.fileEvent('change', page)
    await new Promise((resolve) => setTimeout(resolve, 5))
    await fs.writeFile(page, '# New\n')
    const fast = feed.fileEvent('change', page)
    await Promise.all([slow, fast])
    expect(hashes.at(-1)).toBe(hashContent('# New\n'))
  })

  it('reads a page saved in place once more when its events settle: the write after the truncation is not lost', async () => {
    const page = path.join(site, 'page.md')
    await fs.writeFile(page, '# Saved\n\nSee [[Other]].\n')
    // The one event the watcher reports is read between the editor's truncation and its write;
    // the write's own event is the one the watcher drops.
    let reads = 0
    const readPage = async (file: string) => (reads++ === 0 ? '' : fs.readFile(file, 'utf8'))
    const feed = new PageChangeFeed(site, { readPage, settleMs: 600 })
    const seen: PageChange[] = []
    feed.subscribe((change) => void seen.push(change))
    await feed.fileEvent('change', page)
    expect(seen.map((change) => change.content)).toEqual([''])
    await until(() => seen.length === 2, 5_000, 'the read after the events settled')
    expect(seen[1]).toMatchObject({ path: 'page.md', kind: 'updated', title: 'Saved', content: '# Saved\n\nSee [[Other]].\n' })
    // A burst of events is read once more after it, and unchanged, that read publishes nothing.
    for (let event = 0; event < 5; event++) await feed.fileEvent('change', page)
    await until(() => reads === 2 + 5 + 1, 5_000, 'the read after the burst')
    await new Promise((resolve) => setTimeout(resolve, 800))
    expect(reads).toBe(2 + 5 + 1)
    expect(seen).toHaveLength(2)
  })

  it('reads nothing more once closed', async () => {
    const page = path.join(site, 'page.md')
    await fs.writeFile(page, '# Page\n')
    let reads = 0
    const feed = new PageChangeFeed(site, { readPage: (file) => (reads++, fs.readFile(file, 'utf8')), settleMs: 500 })
    await feed.fileEvent('add', page)
    feed.close()
    // An event still on its way when the server closed is read, but leaves nothing for later.
    await feed.fileEvent('change', page)
    await new Promise((resolve) => setTimeout(resolve, 700))
    expect(reads).toBe(2)
  })

  it('orders a write through the API after a watcher event already reading the page', async () => {
    const page = path.join(site, 'page.md')
    await fs.writeFile(page, '# Editor\n')
    const readPage = async (file: string) => {
      const content = await fs.readFile(file, 'utf8')
      await new Promise((resolve) => setTimeout(resolve, 30))
      return content
    }
    const feed = new PageChangeFeed(site, { readPage })
    const titles: (string | null)[] = []
    feed.subscribe((change) => void titles.push(change.title))
    const watcher = feed.fileEvent('change', page)
    await new Promise((resolve) => setTimeout(resolve, 5))
    await fs.writeFile(page, '# API\n')
    await Promise.all([watcher, feed.pageWritten('page.md', 'updated', '# API\n')])
    expect(titles.at(-1)).toBe('API')
  })

  it('applies the /files path rule to watcher events: nothing through a symlink out of the site, in a dot-folder or an 8.3 name', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-feed-outside-'))
    try {
      await fs.writeFile(path.join(outside, 'secret.md'), '---\ntitle: Secret\n---\nsecret words\n')
      await fs.symlink(outside, path.join(site, 'outside'))
      await fs.symlink(path.join(outside, 'secret.md'), path.join(site, 'linked.md'))
      await fs.mkdir(path.join(site, '.vitepress'))
      await fs.writeFile(path.join(site, '.vitepress', 'hidden.md'), '# Hidden\n')
      await fs.mkdir(path.join(site, 'VITEPR~1'))
      await fs.writeFile(path.join(site, 'VITEPR~1', 'short.md'), '# Short\n')
      const feed = new PageChangeFeed(site)
      const seen: PageChange[] = []
      feed.subscribe((change) => void seen.push(change))
      for (const file of ['outside/secret.md', 'linked.md', '.vitepress/hidden.md', 'VITEPR~1/short.md']) {
        await feed.fileEvent('add', path.join(site, file))
        await feed.fileEvent('change', path.join(site, file))
      }
      expect(seen).toEqual([])
    } finally {
      await fs.rm(outside, { recursive: true, force: true })
    }
  })

  it('reports a page reached through an in-site symlink or an NFD name under the one name /files gives it', async () => {
    await fs.mkdir(path.join(site, 'posts'))
    await fs.symlink('posts', path.join(site, 'alias'))
    await fs.writeFile(path.join(site, 'posts', 'cre\u0300me.md'), '# Cr\u00e8me\n')
    const feed = new PageChangeFeed(site)
    const seen: PageChange[] = []
    feed.subscribe((change) => void seen.push(change))
    await feed.fileEvent('add', path.join(site, 'posts', 'cre\u0300me.md'))
    await feed.fileEvent('change', path.join(site, 'alias', 'cre\u0300me.md'))
    expect(seen.map((change) => [change.path, change.kind, change.title])).toEqual([['posts/cr\u00e8me.md', 'created', 'Cr\u00e8me']])
  })
})
