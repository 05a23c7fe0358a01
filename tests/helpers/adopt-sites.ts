// The sample blogs of the adoption test and bench: the packed tarball installed into each, beside a
// copy of the same blog without MetaBlog.
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { makeTempDir, REPO_ROOT } from './dev-server.js'

export const run = promisify(execFile)
export const VITEPRESS = path.join(REPO_ROOT, 'node_modules/vitepress/bin/vitepress.js')
export const ADOPT_SITES = ['adopt-custom-layout', 'adopt-zh'] as const
export type AdoptSite = (typeof ADOPT_SITES)[number]

export interface AdoptWorkspace {
  work: string
  tarball: string
  /** The files `npm pack` put in the tarball. */
  packed: string[]
  roots: Record<AdoptSite, { site: string; vanilla: string }>
}

/** The same blog without MetaBlog: its config unwrapped, its theme without our entry. */
async function makeVanilla(site: AdoptSite, root: string): Promise<void> {
  const config = path.join(root, '.vitepress/config.ts')
  const text = await fs.readFile(config, 'utf8')
  await fs.writeFile(config, text.replace("import { withMetaBlog } from 'metablog'\n", '').replace('export default withMetaBlog(', 'export default ('))
  const theme = path.join(root, '.vitepress/theme/index.ts')
  const vanillaTheme =
    site === 'adopt-zh'
      ? "import DefaultTheme from 'vitepress/theme'\n\nexport default DefaultTheme\n"
      : "import type { Theme } from 'vitepress'\nimport Layout from './Layout.vue'\n\nconst theme: Theme = { Layout }\nexport default theme\n"
  await fs.writeFile(theme, vanillaTheme)
}

/** Packs the repository (dist must be built) and installs the tarball into a copy of each sample blog. */
export async function makeAdoptWorkspace(): Promise<AdoptWorkspace> {
  const work = await makeTempDir('adopt')
  // Pack runs no lifecycle script of ours.
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: REPO_ROOT })
  const [report] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[]
  const tarball = path.join(work, report!.filename)
  const roots = {} as AdoptWorkspace['roots']
  for (const site of ADOPT_SITES) {
    const root = path.join(work, site)
    const vanilla = path.join(work, `${site}-vanilla`)
    await fs.cp(path.join(REPO_ROOT, 'tests/fixtures', site), root, { recursive: true })
    await fs.cp(root, vanilla, { recursive: true })
    await makeVanilla(site, vanilla)
    // Installed offline: the tarball unpacked as node_modules/metablog; its dependencies resolve from the repository's node_modules above.
    const target = path.join(root, 'node_modules/metablog')
    await fs.mkdir(target, { recursive: true })
    await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'])
    roots[site] = { site: root, vanilla }
  }
  return { work, tarball, packed: report!.files.map((file) => file.path), roots }
}

/** The page each blog opens in dev: a post with prose to summarize. */
export function adoptPage(site: AdoptSite): string {
  return `/posts/${site === 'adopt-zh' ? 'install' : 'first-post'}`
}
