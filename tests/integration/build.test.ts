import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pageKnowledgeOf, type CompactGraph, type PageKnowledge } from '../../plugin/protocol.js'
import { copySite, REPO_ROOT } from '../helpers/dev-server.js'
import { pageDataOfChunk } from '../helpers/page-data.js'

let root: string
let outDir: string
let files: { name: string; text: string }[]

beforeAll(async () => {
  root = await copySite(path.join(REPO_ROOT, 'docs'))
  // As an author runs it: in this process Vue's development build is already loaded, and its SSR
  // render warns about the default theme's own code (VPSidebar) on every page.
  await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, 'node_modules/vitepress/bin/vitepress.js'), 'build', root], { cwd: REPO_ROOT })
  outDir = path.join(root, '.vitepress/dist')
  const names = (await fs.readdir(outDir, { recursive: true })) as string[]
  files = await Promise.all(
    names
      .filter((name) => /\.(html|js|css|json)$/.test(name))
      .map(async (name) => ({ name, text: await fs.readFile(path.join(outDir, name), 'utf8') })),
  )
}, 180_000)

/** A page's data as the theme reads it, from its built chunk (`metablog` unpacked). */
function pageData(prefix: string): { metablog?: PageKnowledge } {
  const chunk = files.find((file) => file.name.startsWith(`assets/${prefix}.`) && file.name.endsWith('.lean.js'))
  if (!chunk) throw new Error(`no chunk for ${prefix}`)
  return { metablog: pageKnowledgeOf(pageDataOfChunk(chunk.text, chunk.name)) }
}

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true })
})

describe('vitepress build of the demo blog', () => {
  it('renders every page', () => {
    const pages = files.filter((file) => file.name.endsWith('.html')).map((file) => file.name)
    expect(pages).toEqual(expect.arrayContaining(['index.html', 'about-metablog.html', 'posts/atomic-file-writes.html', 'zh/llm-streaming-principles.html']))
    expect(pages.length).toBeGreaterThanOrEqual(12)
  })

  it('ships the reading features: backlinks under pages, the graph page, the generated sidebar', () => {
    const post = files.find((file) => file.name === 'posts/streaming-llm-responses.html')!.text
    expect(post).toContain('Linked from')
    expect(post).toMatch(/href="\/about-metablog(\.html)?"[^>]*>About MetaBlog</)
    expect(files.find((file) => file.name === 'graph.html')!.text).toContain('metablog-graph')
    // Wiki-links render as site links, the missing one marked.
    const etags = files.find((file) => file.name === 'posts/understanding-etags.html')!.text
    expect(etags).toContain('metablog-link--unresolved')
    expect(etags).toMatch(/<a (?=[^>]*class="metablog-link")(?=[^>]*href="\/posts\/atomic-file-writes(?:\.html)?")/)
  })

  it('leaves draft pages out of the graph data it ships', () => {
    const graphKey = (page: string) => new RegExp(`(?<![A-Za-z])["']?(?:path|source|target)["']?:\\s*["']${page.replace(/[./-]/g, '\\$&')}["']`)
    const scripts = files.filter((file) => file.name.endsWith('.js'))
    const graph = files.find((file) => /metablog-graph\.[\w-]+\.json$/.test(file.name))
    expect(graph, 'the graph page\'s JSON asset').toBeDefined()
    const paths = (JSON.parse(graph!.text) as CompactGraph).nodes.map(([path]) => path)
    // The graph is there, with the published pages…
    expect(paths).toContain('posts/atomic-file-writes.md')
    // …but not the draft: not a node of the whole graph, nor in any page's own slice.
    expect(paths).not.toContain('posts/markdown-it-wiki-link-plugin.md')
    for (const file of scripts) expect(graphKey('posts/markdown-it-wiki-link-plugin.md').test(file.text), file.name).toBe(false)
    // A page's own slice lists its neighbours as [path, title] pairs.
    for (const file of scripts) expect(file.text, file.name).not.toMatch(/\[\\?["']posts\/markdown-it-wiki-link-plugin\.md\\?["']/)
  })

  it('renders "Linked from" and the local graph from a page\'s own slice, which carries only what they show', () => {
    const post = files.find((file) => file.name === 'posts/streaming-llm-responses.html')!.text
    const section = /<section class="metablog-backlinks[\s\S]*?<\/section>/.exec(post)?.[0] ?? ''
    const listed = [...section.matchAll(/<li[^>]*><a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((match) => match[1]!.replace(/\.html$/, ''))
    const data = pageData('posts_streaming-llm-responses.md')
    const links = data.metablog?.links
    expect(links, 'the page\'s links in its data').toBeDefined()
    // Only the graph's two parts, each node a [path, title] pair and each link a pair of indexes: no tags, headings or unresolved links.
    expect(Object.keys(links!).sort()).toEqual(['edges', 'nodes'])
    for (const node of links!.nodes) expect(node).toEqual([expect.any(String), expect.any(String)])
    for (const edge of links!.edges) expect(edge).toEqual([expect.any(Number), expect.any(Number)])
    // Every page listed under "Linked from" links here, by the slice; and every page linking here is listed.
    const self = links!.nodes.findIndex(([path]) => path === 'posts/streaming-llm-responses.md')
    const sources = links!.edges.filter(([source, target]) => target === self && source !== self).map(([source]) => `/${links!.nodes[source]![0].replace(/(index)?\.md$/, '')}`)
    expect(listed.length).toBeGreaterThan(0)
    expect([...listed].sort()).toEqual([...new Set(sources)].sort())
    // The local graph's figure, its caption counting the slice's pages and links.
    expect(section).toContain('class="metablog-graph"')
    expect(section).toContain(`${links!.nodes.length} pages · ${links!.edges.length} links`)
  })

  it('ships no whole-site data to every page: no graph in the theme, no sidebar in the site data', () => {
    const theme = files.find((file) => /chunks\/theme\.[\w-]+\.js$/.test(file.name))!
    // d3 and the graph load only with the graph component's own chunk.
    expect(theme.text).not.toContain('forceSimulation')
    expect(theme.text).not.toContain('posts/atomic-file-writes.md')
    const post = files.find((file) => file.name === 'posts/streaming-llm-responses.html')!.text
    const siteData = /__VP_SITE_DATA__=JSON\.parse\((.*?)\);?<\/script>/s.exec(post)?.[1] ?? ''
    expect(siteData).not.toContain('sidebar')
    // The page still renders its folder's section, from its own data.
    expect(post).toMatch(/class="VPSidebar[\s\S]*href="\/posts\/understanding-etags"/)
    // Its own section only, packed: links relative to the section's key.
    const sidebar = JSON.stringify(pageData('posts_streaming-llm-responses.md').metablog?.sidebar)
    expect(sidebar).toContain('["/posts/",')
    expect(sidebar).toContain('"understanding-etags"]')
    expect(sidebar).not.toContain('"/notes/"')
  })

  it('ships a local search index split with the CJK tokenizer', () => {
    const index = files.find((file) => /@localSearchIndexroot[^/]*\.js$/.test(file.name))
    expect(index, 'the local search index chunk').toBeDefined()
    // Bigrams are terms of their own: the default tokenizer would keep whole sentences as one term.
    expect(index!.text).toContain('"知识"')
    expect(index!.text).toContain('"图谱"')
  })

  it('ships no API route, no token and no writer UI', () => {
    for (const file of files) {
      expect(file.text, file.name).not.toContain('__metablog')
      expect(file.text, file.name).not.toContain('metablog-token')
      expect(file.text, file.name).not.toContain('X-MetaBlog-Token')
      expect(file.text, file.name).not.toContain('Open MetaBlog assistant')
      // Pinia is the writer UI's store: a build neither ships nor parses it (and the devtools kit it imports).
      expect(file.text, file.name).not.toContain('$pinia')
      // slugify names the writer's new files; its character table is not the reader's to download.
      expect(file.text, file.name).not.toContain('slugify: string argument expected')
    }
  })
})
