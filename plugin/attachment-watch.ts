import fs from 'node:fs/promises'
import path from 'node:path'
import { isAttachmentPath } from '../server/knowledge/attachments.js'
import type { KnowledgeService } from './knowledge-service.js'
import type { ViteDevServer } from './vite-types.js'

/**
 * Feeds the knowledge index the attachment files the dev server's watcher sees come and go
 * (a rename is an unlink and an add), so an embed turns into an image, or back into a marker,
 * without a restart. A symlink is never an attachment: it could lead out of the site.
 */
export function watchAttachments(knowledge: KnowledgeService, server: ViteDevServer): void {
  const log = server.config.logger
  server.watcher.on('all', (event, file) => {
    if (event !== 'add' && event !== 'unlink') return
    const sourceDir = knowledge.sourceDir
    if (!sourceDir) return
    const relativePath = path.relative(sourceDir, file).split(path.sep).join('/')
    if (relativePath.startsWith('../') || !isAttachmentPath(relativePath)) return
    const apply = async () => {
      const present = event === 'add' && (await fs.lstat(file).then((stats) => stats.isFile(), () => false))
      await knowledge.applyAttachment(relativePath, present, server)
    }
    apply().catch((error: Error) => log.error(`[metablog] updating after the change to ${relativePath} failed: ${error.message}`))
  })
}
