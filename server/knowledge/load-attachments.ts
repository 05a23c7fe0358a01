import { listSiteFiles } from './load-pages.js'

/**
 * Every attachment file under `sourceDir` ('Attachments/icons/a.svg'), skipping dot-folders and
 * node_modules like the page walk (it is the same walk). Symlinks are skipped: one could lead out of the site.
 */
export async function listAttachmentPaths(sourceDir: string): Promise<string[]> {
  return (await listSiteFiles(sourceDir)).attachments
}
