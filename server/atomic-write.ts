import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { isErrnoException } from './errors.js'
import { isSkippedFolder } from './safe-path.js'

export const TEMP_SUFFIX = '.metablog-tmp'
/** A temp file younger than this may belong to a write still in flight, so cleanup leaves it. */
export const STALE_TEMP_AGE_MS = 60_000

export interface AtomicWriteOptions {
  /** Runs before and after the folder is made, and again right before the rename; throwing cancels the write. */
  verify?: () => Promise<void>
  /** Flush to the disk before the rename (default). Without it the write still survives the process dying, not the machine. */
  durable?: boolean
}

/** The permission bits of an existing file, or null when there is none to keep. */
async function modeOf(file: string): Promise<number | null> {
  try {
    return (await fs.stat(file)).mode & 0o7777
  } catch (error) {
    if (isErrnoException(error) && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) return null
    throw error
  }
}

/**
 * Writes a file so that a reader or a crash sees the old content or the new, never a mix:
 * write a temp file in the same folder, flush it, then rename it over the target.
 * A replaced file keeps its permission bits.
 */
export async function writeFileAtomic(file: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const folder = path.dirname(file)
  // Checked before the folder is made too, so no folder is created where a swapped symlink leads.
  await options.verify?.()
  await fs.mkdir(folder, { recursive: true })
  await options.verify?.()
  const mode = await modeOf(file)
  // A short name of its own, so a page whose name is near the file system's limit still has room.
  const temp = path.join(folder, `.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`)
  const handle = await fs.open(temp, 'wx')
  try {
    await handle.writeFile(content)
    // The temp file was created with the default mode; the rename would otherwise reset the page's.
    if (mode !== null) await handle.chmod(mode)
    if (options.durable !== false) await handle.sync()
  } catch (error) {
    await handle.close()
    await fs.rm(temp, { force: true })
    throw error
  }
  await handle.close()
  try {
    await options.verify?.()
    await fs.rename(temp, file)
  } catch (error) {
    await fs.rm(temp, { force: true })
    throw error
  }
}

/**
 * Removes temp files left by writes killed between write and rename, under `folder` (skipping
 * dot-folders and node_modules). Only files older than `minAgeMs`: a younger one may be a
 * concurrent write's, about to be renamed.
 */
export async function removeStaleTempFiles(folder: string, minAgeMs = STALE_TEMP_AGE_MS, now = Date.now()): Promise<number> {
  let removed = 0
  const walk = async (current: string): Promise<void> => {
    let entries
    try {
      entries = await fs.readdir(current, { withFileTypes: true })
    } catch (error) {
      if (isErrnoException(error) && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) return
      throw error
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name)
      if (entry.isFile() && entry.name.endsWith(TEMP_SUFFIX)) {
        const stats = await fs.stat(full).catch(() => null)
        if (stats && now - stats.mtimeMs >= minAgeMs) {
          await fs.rm(full, { force: true })
          removed++
        }
      } else if (entry.isDirectory() && !isSkippedFolder(entry.name)) {
        await walk(full)
      }
    }
  }
  await walk(folder)
  return removed
}
