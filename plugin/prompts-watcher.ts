import { existsSync } from 'node:fs'
import path from 'node:path'
import type { PromptLibrary } from '../server/prompts/prompt-library.js'
import { sendEvent } from './events.js'
import type { ViteDevServer } from './vite-types.js'

// Editors save in bursts (write, rename, chmod): one event per burst.
const PROMPTS_EVENT_DELAY_MS = 50

/**
 * Reloads the prompt files when one changes and tells the pages: adds the folder to the Vite watcher
 * and returns the listener for its events (the dev API hands it those from before it loaded too).
 */
export function watchPrompts(server: ViteDevServer, prompts: PromptLibrary, siteRoot: string): (event: string, file: string) => void {
  // The folder may lie outside what Vite watches (a srcDir below the site root), and the watcher
  // ignores a path that does not exist yet: watch the nearest folder that does, within the site.
  let watched = prompts.folder
  while (!existsSync(watched) && isInside(path.dirname(watched), siteRoot)) watched = path.dirname(watched)
  server.watcher.add(watched)
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
