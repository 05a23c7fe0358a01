// Copies of one generated default-theme blog for the production-build bench: plain VitePress, the same
// pages with MetaBlog (its config wrapper, its theme and a graph page), and, for reference, plain
// VitePress with what an author would write by hand for the same reading: a sidebar of the shape
// MetaBlog generates (each section's window) and the wiki-links as Markdown links.
import fs from 'node:fs/promises'
import path from 'node:path'
import type { DefaultTheme } from 'vitepress'
import { KnowledgeIndex } from '../../server/knowledge/knowledge-index.js'
import { windowSection } from '../../server/knowledge/sidebar-window.js'
import { wikiLinkAt } from '../../server/knowledge/wiki-syntax.js'
import { syntheticBlog } from './knowledge-synthetic-blog.js'

const HOME = ['---', 'layout: home', 'hero:', '  name: Synthetic blog', '  text: Generated pages for the build bench', '---', ''].join('\n')

const PLAIN_CONFIG = `import { defineConfig } from 'vitepress'

export default defineConfig({ title: 'Synthetic blog', lang: 'en-US', cleanUrls: true })
`

const METABLOG_CONFIG = `import { defineConfig } from 'vitepress'
import { withMetaBlog } from 'metablog'

export default withMetaBlog(defineConfig({ title: 'Synthetic blog', lang: 'en-US', cleanUrls: true }))
`

const METABLOG_THEME = `import MetaBlogTheme from 'metablog/theme'

export default MetaBlogTheme
`

async function write(root: string, file: string, text: string): Promise<void> {
  const absolute = path.join(root, file)
  await fs.mkdir(path.dirname(absolute), { recursive: true })
  await fs.writeFile(absolute, text)
}

/**
 * The sidebar an author might write by hand for the same blog: a section per folder, each as MetaBlog
 * shows it to a page outside the section (its first pages and a "More" entry per long folder), the same
 * on every page of the section.
 */
function handWrittenSidebar(index: KnowledgeIndex): DefaultTheme.SidebarMulti {
  const sections = index.sidebarSections({ includeDrafts: false })
  const options = { source: () => '', label: (hidden: number) => `More (${hidden})…` }
  return Object.fromEntries(Object.entries(sections).map(([key, items]) => [key, windowSection(items as DefaultTheme.SidebarItem[], '', options).map(plainItem)]))
}

/** A "More" entry as plain text (MetaBlog's carries its folder in markup only its theme reads). */
function plainItem(item: DefaultTheme.SidebarItem): DefaultTheme.SidebarItem {
  const text = item.text?.replace(/<[^>]*>/g, '')
  return item.items ? { ...item, text, items: item.items.map(plainItem) } : { ...item, text }
}

/** A page with each resolved wiki-link written as a Markdown link (its words as MetaBlog shows them); the others left as text. */
function linksByHand(index: KnowledgeIndex, page: { path: string; content: string }): string {
  let out = ''
  let from = 0
  for (let at = page.content.indexOf('[[', from); at !== -1; at = page.content.indexOf('[[', from)) {
    const link = wikiLinkAt(page.content, at, page.content.length)
    const target = link && !link.embed ? index.resolve(link.parts.target, page.path) : null
    if (!link || !target) {
      out += page.content.slice(from, at + 2)
      from = at + 2
      continue
    }
    const words = link.parts.label ?? (link.parts.heading ? `${link.parts.target} › ${link.parts.heading}` : link.parts.target)
    const fragment = link.parts.heading ? `#${index.fragmentId(target.path, link.parts.heading)}` : ''
    out += `${page.content.slice(from, at)}[${words}](/${target.path.replace(/\.md$/, '')}${fragment})`
    from = link.close + 2
  }
  return out + page.content.slice(from)
}

export type BuildBlogRoots = { plain: string; metablog: string; handSidebar: string }

/** Writes `count` generated pages, a home page and a graph page into each root. */
export async function writeBuildBlogs(count: number, roots: BuildBlogRoots): Promise<void> {
  const { pages } = syntheticBlog(count)
  const index = KnowledgeIndex.build(pages)
  for (const root of Object.values(roots)) {
    const byHand = root === roots.handSidebar
    await write(root, 'index.md', HOME)
    // Written in batches: thousands of parallel writes would exhaust file handles.
    for (let start = 0; start < pages.length; start += 200) {
      await Promise.all(pages.slice(start, start + 200).map((page) => write(root, page.path, byHand ? linksByHand(index, page) : page.content)))
    }
  }
  await write(roots.plain, 'graph.md', '# Graph\n\nAll pages and their links.\n')
  await write(roots.plain, '.vitepress/config.mts', PLAIN_CONFIG)
  await write(roots.handSidebar, 'graph.md', '# Graph\n\nAll pages and their links.\n')
  const sidebar = JSON.stringify(handWrittenSidebar(index))
  await write(roots.handSidebar, '.vitepress/config.mts', PLAIN_CONFIG.replace("cleanUrls: true }", `cleanUrls: true, themeConfig: { sidebar: ${sidebar} } }`))
  await write(roots.metablog, 'graph.md', '# Graph\n\nAll pages and their links.\n\n<KnowledgeGraph />\n')
  await write(roots.metablog, '.vitepress/config.mts', METABLOG_CONFIG)
  await write(roots.metablog, '.vitepress/theme/index.ts', METABLOG_THEME)
}
