import fs from 'node:fs/promises'
import path from 'node:path'
import { isSkippedFolder } from '../safe-path.js'
import { isAttachmentPath } from './attachments.js'

/**
 * Every attachment file under `sourceDir` ('Attachments/icons/a.svg'), skipping dot-folders and
 * node_modules like the page walk. Symlinks are skipped: one could lead out of the site.
 */
export async function listAttachmentPaths(sourceDir: string): Promise<string[]> {
  const found: string[] = []
  const walk = async (folder: string, prefix: string): Promise<void> => {
    const entries = await fs.readdir(folder, { withFileTypes: true })
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.isDirectory()) {
          if (!isSkippedFolder(entry.name)) await walk(path.join(folder, entry.name), `${prefix}${entry.name}/`)
        } else if (entry.isFile() && isAttachmentPath(`${prefix}${entry.name}`)) found.push(`${prefix}${entry.name}`)
      }),
    )
  }
  await walk(sourceDir, '')
  return found.sort()
}
