import { existsSync } from 'node:fs'
import path from 'node:path'
import type { PromptLibrary } from '../server/prompts/prompt-library.js'
import { sendEvent } from './events.js'
import type { ViteDevServer } from './vite-types.js'

// Editors save in bursts (write, rename, chmod): one event per burst.
const PROMPTS_EVENT_DELAY_MS = 50

/**
 * Adds the prompts folder to the Vite watcher, when the dev server starts: a folder added later is
 * scanned as the watcher's initial files are, without events, so a prompt written during that scan
 * would be missed. The folder may lie outside what Vite watches (a srcDir below the site root), and
 * the watcher ignores a path that does not exist yet: the nearest folder that does, within the site.
 */
export function watchPromptsFolder(server: ViteDevServer, siteRoot: string, promptsDir: string): void {
  let watched = path.resolve(siteRoot, promptsDir)
  while (!existsSync(watched) && isInside(path.dirname(watched), siteRoot)) watched = path.dirname(watched)
  server.watcher.add(watched)
}

/**
 * Reloads the prompt files when one changes and tells the pages: the listener for the watcher's events
 * (the dev API hands it those from before it loaded too).
 */
export function watchPrompts(server: ViteDevServer, prompts: PromptLibrary): (event: string, file: string) => void {
  let changed = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  return (event, file) => {
    // Editors' swap and backup files change often and are never read as prompts.
    if (!prompts.isPromptFile(file) || event === 'addDir' || event === 'unlinkDir') return
    prompts.invalidate()
    changed.add(path.basename(file))
    clearTimeout(timer)
    timer = setTimeout(() => {
      const files = [...changed].sort()
      changed = new Set()
      sendEvent(server, 'metablog:prompts-updated', { files })
    }, PROMPTS_EVENT_DELAY_MS)
  }
}

function isInside(folder: string, root: string): boolean {
  const relative = path.relative(root, folder)
  return !relative.startsWith('..') && !path.isAbsolute(relative)
}
