import fs from 'node:fs'
import path from 'node:path'
import type { MarkdownRenderer } from 'vitepress'
import type { YamlParse } from '../../server/front-matter-engines.js'
import { confineIncludes } from './includes.js'
import { inertName, sourceRefusal } from './source-confinement.js'

/** Filled in once Vite has resolved the site; read at render time. */
export interface SourceContext {
  sourceDir?: string
  /** The YAML parser of the gray-matter VitePress bundles (already loaded, and hardened), once found. */
  yaml?: YamlParse
}

interface RenderEnv {
  path?: string
  includes?: string[]
}

type FenceRule = NonNullable<MarkdownRenderer['renderer']['rules']['fence']>
// VitePress's snippet rule (`<<< path`) leaves the file to read on the fence token.
type SnippetToken = Parameters<FenceRule>[0][number] & { src?: [string, string?] }

/** `<<<` snippets read only files inside the source folder, never dotfiles or dot-folders. */
function confineSnippets(md: MarkdownRenderer, context: SourceContext): void {
  const fence = md.renderer.rules.fence
  if (!fence) return
  md.renderer.rules.fence = (tokens, index, options, env, self) => {
    const token = tokens[index] as SnippetToken
    const file = token.src?.[0]
    if (file) {
      const sourceDir = context.sourceDir
      const reason = sourceDir ? sourceRefusal(sourceDir, file) : 'the source folder is not known yet'
      if (reason) {
        token.src = undefined
        token.info = ''
        const name = sourceDir ? path.relative(sourceDir, file) : path.basename(file)
        token.content = `MetaBlog refused the code snippet "${inertName(name)}": ${inertName(reason)}.\n`
      }
    }
    return fence(tokens, index, options, env, self)
  }
}

/**
 * VitePress's local search reads each page from disk and expands its includes before rendering, out
 * of reach of Vite's transforms. A page render without `env.includes` is that one: when the page
 * holds a refused include, its raw text with the include made inert is rendered instead.
 */
function confineSearchIncludes(md: MarkdownRenderer, context: SourceContext): void {
  const render = md.render.bind(md)
  md.render = (source: string, env?: RenderEnv) => {
    const sourceDir = context.sourceDir
    if (!sourceDir || !env?.path || env.includes) return render(source, env)
    let raw: string
    try {
      raw = fs.readFileSync(env.path, 'utf8')
    } catch {
      return render(source, env)
    }
    const confined = confineIncludes(raw, env.path, sourceDir)
    return render(confined.refused.length > 0 ? confined.source : source, env)
  }
}

/** Snippet and include confinement inside VitePress's markdown-it instance. */
export function markdownGuard(context: SourceContext) {
  return function metablogMarkdownGuard(md: MarkdownRenderer): void {
    confineSnippets(md, context)
    confineSearchIncludes(md, context)
  }
}
