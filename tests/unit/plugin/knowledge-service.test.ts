import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { SiteConfig } from 'vitepress'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DevActivity } from '../../../plugin/dev-activity.js'
import { KnowledgeService } from '../../../plugin/knowledge-service.js'
import { KnowledgeIndex } from '../../../server/knowledge/knowledge-index.js'

let site: string

beforeEach(async () => {
  site = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-knowledge-service-'))
  await fs.mkdir(path.join(site, 'posts'))
  await fs.writeFile(path.join(site, 'index.md'), '# Home\n\nSee [[Published]] and [[Secret Draft]].\n')
  await fs.writeFile(path.join(site, 'posts/published.md'), '---\ntitle: Published\n---\nLinks to [[Secret Draft]] and [[Nowhere]].\n')
  await fs.writeFile(path.join(site, 'posts/secret.md'), '---\ntitle: Secret Draft\ndraft: true\n---\nSee [[Published]] and [[Missing From Draft]].\n')
})

afterEach(async () => {
  vi.restoreAllMocks()
  await fs.rm(site, { recursive: true, force: true })
})

function siteConfig(): SiteConfig {
  return { srcDir: site, site: { themeConfig: {} } } as unknown as SiteConfig
}

describe('KnowledgeService', () => {
  it('prepares the search index in the background after a dev-server load, not in a build', async () => {
    const prepare = vi.spyOn(KnowledgeIndex.prototype, 'prepareSearch')
    await new KnowledgeService({ sidebar: true }).load(siteConfig(), 'build')
    expect(prepare).not.toHaveBeenCalled()
    const service = new KnowledgeService({ sidebar: true })
    await service.load(siteConfig(), 'serve')
    await service.ready
    // With no request in flight, the server has its lull at once.
    await vi.waitFor(() => expect(prepare).toHaveBeenCalledTimes(1))
    await prepare.mock.results[0]!.value
    expect(service.index.search('published').map((result) => result.path)).toContain('posts/published.md')
  })

  it('lets the dev server start while the index is built: the folders are known at once, the index and sidebar once ready', async () => {
    const service = new KnowledgeService({ sidebar: true })
    const config = siteConfig()
    await service.load(config, 'serve')
    expect(service.sourceDir).toBe(site)
    expect(() => service.index).toThrow(/before it was loaded/)
    expect(service.builtIndex).toBeNull()
    await service.ready
    expect(service.index.size).toBe(3)
    expect(service.builtIndex).toBe(service.index)
    // The generated sections are the service's, for pages to carry: none in the site data every page inlines.
    expect(Object.keys(service.sidebarSections!)).toEqual(['/posts/'])
    expect(config.site.themeConfig.sidebar).toBeUndefined()
  })

  it('leaves draft pages out of a build’s sidebar and keeps them in the dev server’s', async () => {
    const titles = (service: KnowledgeService) => JSON.stringify(service.sidebarSections)
    const built = new KnowledgeService({ sidebar: true })
    await built.load(siteConfig(), 'build')
    expect(titles(built)).toContain('posts/published')
    expect(titles(built)).not.toContain('posts/secret')
    const served = new KnowledgeService({ sidebar: true })
    await served.load(siteConfig(), 'serve')
    await served.ready
    expect(titles(served)).toContain('posts/secret')
  })
})

describe('KnowledgeService in dev, deferred to the first page', () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 30))

  it('loads nothing while the server starts, and loads once the server has answered its first request', async () => {
    // The dev server lists the files, then reads them (on its own thread for a blog this small).
    const load = vi.spyOn(KnowledgeIndex, 'loadListed')
    const service = new KnowledgeService({ sidebar: true })
    const activity = new DevActivity()
    service.deferTo(activity)
    await service.load(siteConfig(), 'serve')
    await tick()
    expect(load).not.toHaveBeenCalled()
    expect(service.builtIndex).toBeNull()
    activity.requestStarted('/')()
    await vi.waitFor(() => expect(service.builtIndex?.size).toBe(3))
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('loads at once when something needs the index before any request was answered', async () => {
    const service = new KnowledgeService({ sidebar: true })
    service.deferTo(new DevActivity())
    await service.load(siteConfig(), 'serve')
    await tick()
    expect(service.builtIndex).toBeNull()
    await service.ready
    expect(service.index.size).toBe(3)
  })

  it('builds the search index only after the first page module was sent and a lull, or when a search asks', async () => {
    const prepare = vi.spyOn(KnowledgeIndex.prototype, 'prepareSearch')
    const service = new KnowledgeService({ sidebar: true })
    const activity = new DevActivity()
    service.deferTo(activity)
    await service.load(siteConfig(), 'serve')
    await service.ready
    activity.requestStarted('/@vite/client')()
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(prepare).not.toHaveBeenCalled()
    activity.requestStarted('/posts/published.md?import')()
    await tick()
    expect(prepare).not.toHaveBeenCalled()
    await vi.waitFor(() => expect(prepare).toHaveBeenCalledTimes(1))

    const searched = new KnowledgeService({ sidebar: true })
    searched.deferTo(new DevActivity())
    await searched.load(siteConfig(), 'serve')
    await searched.ready
    searched.startSearch()
    expect(prepare).toHaveBeenCalledTimes(2)
    expect(searched.index.searchNow('published').results.map((result) => result.path)).toContain('posts/published.md')
  })
})
