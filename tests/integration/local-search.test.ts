// VitePress's own search box (local search) on the demo blog: CJK words, and pages written while the dev server runs.
import fs from 'node:fs/promises'
import path from 'node:path'
import MiniSearch from 'minisearch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { processTerm, splitTerms } from '../../server/knowledge/tokenizer.js'
import { copySite, REPO_ROOT, startDevServer, type DevServer } from '../helpers/dev-server.js'

let dev: DevServer

/** The index module the page's search box imports, as the dev server serves it. */
async function servedIndex(): Promise<{ json: string; search: (query: string) => string[] }> {
  const body = await (await fetch(`${dev.origin}/@localSearchIndexroot`)).text()
  const literal = /export default ("(?:[^"\\]|\\.)*")/.exec(body)?.[1]
  if (!literal) throw new Error(`not an index module:\n${body.slice(0, 300)}`)
  const json: string = JSON.parse(literal)
  // The options the theme hands VitePress's search box.
  const index = MiniSearch.loadJSON(json, { fields: ['title', 'titles', 'text'], storeFields: ['title', 'titles'], tokenize: splitTerms, processTerm, searchOptions: { tokenize: splitTerms, prefix: true, fuzzy: 0.2 } })
  return { json, search: (query) => [...new Set(index.search(query).map((result) => String(result.id).split('#')[0]))] }
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const started = Date.now()
  let value = await read()
  while (!done(value) && Date.now() - started < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    value = await read()
  }
  return value
}

beforeAll(async () => {
  dev = await startDevServer({ root: await copySite(path.join(REPO_ROOT, 'docs')) })
}, 120_000)

afterAll(async () => {
  await dev?.close()
})

describe('the local search index served in dev', () => {
  it('holds CJK bigrams, so 知识图谱 finds the three Chinese pages that contain it', async () => {
    const { json, search } = await servedIndex()
    expect(json).toContain('"知识"')
    expect(json).toContain('"图谱"')
    const found = search('知识图谱')
    expect(found.slice(0, 3).sort()).toEqual(['/zh/', '/zh/knowledge-graph-backlinks', '/zh/vitepress-personal-blog'])
  })

  it('hands the search box tokenizer functions that work on their own, as VitePress revives them', async () => {
    const body = await (await fetch(`${dev.origin}/@siteData`)).text()
    const data = new Function(body.replace('export default ', 'return '))()
    const miniSearch = data.themeConfig.search.options.miniSearch
    expect(miniSearch.options.tokenize('知识图谱', 'text')).toEqual(['知', '知识', '识', '识图', '图', '图谱', '谱'])
    expect(miniSearch.searchOptions.tokenize('知识图谱')).toEqual(['知识', '识图', '图谱'])
    expect(miniSearch.options.processTerm('ETag')).toBe('etag')
  })

  it('finds a page created through the API, an edit of it, and forgets it once deleted', async () => {
    const created = await dev.api('/files', {
      method: 'PUT',
      headers: { 'If-None-Match': '*' },
      json: { path: 'notes/quokka-field-notes.md', content: '---\ntitle: Quokka field notes\n---\n\n# Quokka field notes\n\n## Sightings\n\nA zanzibarine quokka at dawn. 袋鼠观察笔记。\n' },
    })
    expect(created.status).toBe(201)
    let index = await eventually(servedIndex, (value) => value.search('zanzibarine').length > 0)
    expect(index.search('zanzibarine')).toEqual(['/notes/quokka-field-notes'])
    expect(index.search('袋鼠观察')).toContain('/notes/quokka-field-notes')

    const edited = await dev.api('/files', {
      method: 'PUT',
      headers: { 'If-Match': `"${created.json.hash}"` },
      json: { path: 'notes/quokka-field-notes.md', content: '---\ntitle: Quokka field notes\n---\n\n# Quokka field notes\n\n## Sightings\n\nA borogove at dusk.\n' },
    })
    expect(edited.status).toBe(200)
    index = await eventually(servedIndex, (value) => value.search('borogove').length > 0)
    expect(index.search('borogove')).toEqual(['/notes/quokka-field-notes'])
    expect(index.search('zanzibarine')).toEqual([])

    const deleted = await dev.api('/files?path=notes/quokka-field-notes.md', { method: 'DELETE', headers: { 'If-Match': `"${edited.json.hash}"` } })
    expect(deleted.status).toBe(200)
    index = await eventually(servedIndex, (value) => value.search('borogove').length === 0)
    expect(index.search('borogove')).toEqual([])
  })

  it('finds what an editor saved in place, though the watcher reported the file while it was empty', async () => {
    await servedIndex()
    const file = path.join(dev.root, 'notes/saved-in-place.md')
    await fs.mkdir(path.dirname(file), { recursive: true })
    await fs.writeFile(file, '# Saved in place\n\nThe hunting of the snark.\n')
    await eventually(servedIndex, (value) => value.search('snark').length > 0)
    // Truncated, then written 20 ms later: the watcher reports the empty file and drops the write's event.
    await fs.writeFile(file, '')
    await new Promise((resolve) => setTimeout(resolve, 20))
    await fs.writeFile(file, '# Saved in place\n\nA jabberwock in the tulgey wood.\n')
    const index = await eventually(servedIndex, (value) => value.search('jabberwock').length > 0)
    expect(index.search('jabberwock')).toEqual(['/notes/saved-in-place'])
  })
})
