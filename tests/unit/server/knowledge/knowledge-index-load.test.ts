import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { KnowledgeIndex } from '../../../../server/knowledge/knowledge-index.js'
import { syntheticBlog } from '../../../bench/knowledge-synthetic-blog.js'

let folder = ''

afterEach(async () => {
  if (folder) await fs.rm(folder, { recursive: true, force: true })
  folder = ''
})

describe('KnowledgeIndex.load with a pause (the dev server’s build)', () => {
  it('awaits the pause between slices and builds the very index a build without pauses gives', async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-paused-load-'))
    for (const page of syntheticBlog(600).pages) {
      await fs.mkdir(path.dirname(path.join(folder, page.path)), { recursive: true })
      await fs.writeFile(path.join(folder, page.path), page.content)
    }
    let pauses = 0
    let longestRunMs = 0
    let ranSince = performance.now()
    const paused = await KnowledgeIndex.load(folder, async () => {
      pauses++
      longestRunMs = Math.max(longestRunMs, performance.now() - ranSince)
      await new Promise((resolve) => setTimeout(resolve, 1))
      ranSince = performance.now()
    })
    const whole = await KnowledgeIndex.load(folder)
    expect(pauses).toBeGreaterThan(0)
    // A slice is 12 ms of work; a loaded CI machine may stretch one page's parse past it, not by seconds.
    expect(longestRunMs).toBeLessThan(250)
    expect(paused.snapshot()).toEqual(whole.snapshot())
  })
})
