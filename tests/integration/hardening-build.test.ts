import fs from 'node:fs/promises'
import path from 'node:path'
import { build } from 'vitepress'
import { afterAll, describe, expect, it } from 'vitest'
import {
  ALLOWED_SNIPPET,
  ALLOWED_TEXT,
  aliasBomb,
  javascriptFrontMatter,
  outsideFolder,
  SECRET_WORDS,
  TEMPLATE_TITLE,
  writeHostileSite,
} from '../fixtures/hardening/hostile-site.js'
import { copySite } from '../helpers/dev-server.js'

const globals = globalThis as Record<string, unknown>
const roots: string[] = []

// The fixture's config with VitePress's local search on: its index is built from the raw pages.
const CONFIG_WITH_SEARCH = `import { defineConfig } from 'vitepress'
import { withMetaBlog } from 'metablog'
export default withMetaBlog(defineConfig({ title: 'Hostile', themeConfig: { search: { provider: 'local' } } }))
`

async function hostileSite(extra: Record<string, string> = {}): Promise<string> {
  const root = await copySite()
  roots.push(root)
  await writeHostileSite(root)
  await fs.writeFile(path.join(root, '.vitepress/config.ts'), CONFIG_WITH_SEARCH)
  for (const [file, content] of Object.entries(extra)) await fs.writeFile(path.join(root, file), content)
  return root
}

async function outputFiles(root: string): Promise<{ name: string; text: string }[]> {
  const outDir = path.join(root, '.vitepress/dist')
  const names = (await fs.readdir(outDir, { recursive: true })) as string[]
  const files = await Promise.all(
    names.map(async (name) => {
      const stats = await fs.stat(path.join(outDir, name))
      return stats.isFile() ? { name, text: await fs.readFile(path.join(outDir, name), 'utf8') } : null
    }),
  )
  return files.filter((file) => file !== null)
}

afterAll(async () => {
  for (const root of roots) {
    await fs.rm(root, { recursive: true, force: true })
    await fs.rm(outsideFolder(root), { recursive: true, force: true })
  }
  delete globals.__metablogBuildJsRan
})

describe('vitepress build of a site with hostile pages', () => {
  it('ships no .env key, outside file or hidden file, in pages, scripts or the local search index', async () => {
    const root = await hostileSite()
    await build(root)
    const files = await outputFiles(root)
    expect(files.some((file) => /localSearchIndex/.test(file.name))).toBe(true)
    for (const file of files) for (const word of SECRET_WORDS) expect(file.text, file.name).not.toContain(word)
    const page = (name: string) => files.find((file) => file.name === name)!.text
    // What is allowed still works.
    expect(page('leaks/includes.html')).toContain(ALLOWED_TEXT)
    expect(page('leaks/snippets.html')).toContain(ALLOWED_SNIPPET)
    expect(page('leaks/snippets.html')).toContain('MetaBlog refused the code snippet')
    // A title that is template code is rendered as text, never run while rendering in Node.
    expect(page('titles/embed.html')).toContain(TEMPLATE_TITLE.replace(/'/g, '&#39;'))
    expect(globals.__metablogPwned).toBeUndefined()
  }, 240_000)

  it('fails on ---js front matter with a clear error, without running it', async () => {
    const root = await hostileSite({ 'js-page.md': javascriptFrontMatter('js', '__metablogBuildJsRan') })
    await expect(build(root)).rejects.toThrow(/"---js" refused: MetaBlog accepts YAML front matter only/)
    expect(globals.__metablogBuildJsRan).toBeUndefined()
  }, 240_000)

  it('finishes fast on a YAML alias bomb, with an error naming the cause', async () => {
    const root = await hostileSite({ 'bomb.md': aliasBomb() })
    const started = Date.now()
    await expect(build(root)).rejects.toThrow(/expands to more than/)
    expect(Date.now() - started).toBeLessThan(120_000)
  }, 240_000)
})
