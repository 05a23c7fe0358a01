import fs from 'node:fs/promises'
import path from 'node:path'
import type { SiteConfig } from 'vitepress'
import { watchAttachments } from './attachment-watch.js'
import type { KnowledgeService } from './knowledge-service.js'
import { GRAPH_MODULE_ID, RESOLVED_GRAPH_MODULE_ID } from './virtual-modules.js'
import type { Plugin } from './vite-types.js'

/**
 * Loads the knowledge index before any page renders, sets the sidebar, serves the graph module,
 * keeps attachments live in dev and ships the linked ones with a build.
 */
export function knowledgePlugin(knowledge: KnowledgeService): Plugin {
  return {
    name: 'metablog:knowledge',
    async configResolved(config) {
      const site = (config as { vitepress?: SiteConfig }).vitepress
      if (site) await knowledge.load(site, config.command)
    },
    configureServer(server) {
      watchAttachments(knowledge, server)
    },
    resolveId(id) {
      return id === GRAPH_MODULE_ID ? RESOLVED_GRAPH_MODULE_ID : undefined
    },
    load(id) {
      return id === RESOLVED_GRAPH_MODULE_ID ? knowledge.graphModule() : undefined
    },
    async generateBundle(output) {
      // Attachments are files, never imports: each linked one is copied to its own path, in the
      // client build only (the server build of the same plugin writes elsewhere). `public/` ships itself.
      const { sourceDir, outDir } = knowledge
      if (!sourceDir || !outDir || !output.dir || path.resolve(output.dir) !== path.resolve(outDir)) return
      for (const file of knowledge.index.linkedAttachments()) {
        const absolute = path.join(sourceDir, file)
        // Checked again here: a file may have been swapped for a symlink since the index listed it.
        if (file.startsWith('public/') || !(await fs.lstat(absolute)).isFile()) continue
        this.emitFile({ type: 'asset', fileName: file, source: await fs.readFile(absolute) })
      }
    },
  }
}
