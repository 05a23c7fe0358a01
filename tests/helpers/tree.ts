import fs from 'node:fs/promises'
import path from 'node:path'
import { hashContent } from '../../server/hash.js'

/** Every file under a folder (symlinks not followed) with its hash, to prove nothing changed. */
export async function snapshotTree(folder: string): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {}
  const walk = async (current: string): Promise<void> => {
    for (const entry of await fs.readdir(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name)
      const key = path.relative(folder, full)
      if (entry.isSymbolicLink()) snapshot[key] = `-> ${await fs.readlink(full)}`
      else if (entry.isDirectory()) {
        if (entry.name === 'cache') continue
        snapshot[`${key}/`] = 'dir'
        await walk(full)
      } else snapshot[key] = hashContent(await fs.readFile(full))
    }
  }
  await walk(folder)
  return snapshot
}
