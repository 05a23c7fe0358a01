// Every paragraph, list item, table cell and heading of the demo blog (a temp copy), as VitePress renders
// it, is found in its page's Markdown through the source map.
import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMarkdownRenderer, disposeMdItInstance, type MarkdownRenderer } from 'vitepress'
import { foldSelection, locateSelection } from '../../../../client/skills/locate'
import { renderedText } from '../../../../client/skills/source-map/rendered-text'
import { wikiLinkPlugin } from '../../../../plugin/markdown/wiki-link-rule.js'
import { KnowledgeIndex } from '../../../../server/knowledge/knowledge-index.js'
import { copySite, REPO_ROOT } from '../../../helpers/dev-server.js'

let root: string
let pages: { path: string; content: string }[]
let md: MarkdownRenderer
let index: KnowledgeIndex

async function markdownFiles(folder: string, prefix = ''): Promise<string[]> {
  const found: string[] = []
  for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue
    if (entry.isDirectory()) found.push(...(await markdownFiles(path.join(folder, entry.name), `${prefix}${entry.name}/`)))
    else if (entry.name.endsWith('.md')) found.push(`${prefix}${entry.name}`)
  }
  return found
}

beforeAll(async () => {
  root = await copySite(path.join(REPO_ROOT, 'docs'))
  const files = await markdownFiles(root)
  pages = await Promise.all(files.map(async (file) => ({ path: file, content: await fs.readFile(path.join(root, file), 'utf8') })))
  index = KnowledgeIndex.build(pages)
  disposeMdItInstance()
  // Code is left out of the comparison, so Shiki's highlighting (most of the time) is too.
  md = await createMarkdownRenderer(root, { highlight: (code) => md.utils.escapeHtml(code) })
  md.use(wikiLinkPlugin, { resolve: (target: string, from: string) => index.resolve(target, from) })
})

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true })
})

// Leaf blocks whose text a reader selects; VitePress's container titles ("TIP") have a class and are left out.
const BLOCK = /<(p|li|td|th|h[1-6])(?:\s(?![^>]*class="custom-block-title")[^>]*)?>((?:(?!<(?:p|ul|ol|li)\b)[\s\S])*?)<\/\1>/g

function blockTexts(html: string): string[] {
  return [...html.matchAll(BLOCK)]
    .map((match) => foldSelection(match[2]!.replace(/<[^>]+>/g, '').replace(/&(#?\w+);/g, (entity) => md.utils.unescapeAll(entity))))
    .filter((text) => text.length > 0)
}

describe('the source map on the demo blog', () => {
  it('finds every block of every page', () => {
    let checked = 0
    const missing: string[] = []
    for (const page of pages) {
      const body = page.content.replace(/^---\n[\s\S]*?\n---\n/, '')
      const titleOf = (target: string) => index.resolve(target, page.path)?.title ?? null
      const text = renderedText(page.content, { titleOf }).text
      for (const block of blockTexts(md.render(body, { relativePath: page.path, cleanUrls: true }))) {
        checked++
        if (!text.includes(block)) {
          missing.push(`${page.path}: ${block}`)
          continue
        }
        if (text.indexOf(block) !== text.lastIndexOf(block)) continue
        const found = locateSelection(page.content, block, { titleOf })
        if ('problem' in found) missing.push(`${page.path}: ${found.problem}: ${block}`)
      }
    }
    expect(missing).toEqual([])
    expect(checked).toBeGreaterThan(200)
  })
})
