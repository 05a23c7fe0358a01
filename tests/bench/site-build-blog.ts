// Two copies of one generated default-theme blog for the production-build bench: plain VitePress,
// and the same pages with MetaBlog (its config wrapper, its theme and a graph page).
import fs from 'node:fs/promises'
import path from 'node:path'
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

/** Writes `count` generated pages, a home page and a graph page into `plain` and `metablog`. */
export async function writeBuildBlogs(count: number, roots: { plain: string; metablog: string }): Promise<void> {
  const { pages } = syntheticBlog(count)
  for (const root of [roots.plain, roots.metablog]) {
    await write(root, 'index.md', HOME)
    // Written in batches: thousands of parallel writes would exhaust file handles.
    for (let start = 0; start < pages.length; start += 200) {
      await Promise.all(pages.slice(start, start + 200).map((page) => write(root, page.path, page.content)))
    }
  }
  await write(roots.plain, 'graph.md', '# Graph\n\nAll pages and their links.\n')
  await write(roots.plain, '.vitepress/config.mts', PLAIN_CONFIG)
  await write(roots.metablog, 'graph.md', '# Graph\n\nAll pages and their links.\n\n<KnowledgeGraph />\n')
  await write(roots.metablog, '.vitepress/config.mts', METABLOG_CONFIG)
  await write(roots.metablog, '.vitepress/theme/index.ts', METABLOG_THEME)
}
