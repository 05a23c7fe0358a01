import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PageChangeFeed, type PageChange } from '../../../plugin/page-change-feed.js'
import { hashContent } from '../../../server/hash.js'

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
})
