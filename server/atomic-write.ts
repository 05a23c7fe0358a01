import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'

export const TEMP_SUFFIX = '.metablog-tmp'

/**
 * Writes a file so that a reader or a crash sees the old content or the new, never a mix:
 * write a temp file in the same folder, flush it, then rename it over the target.
 */
export async function writeFileAtomic(file: string, content: string | Uint8Array): Promise<void> {
  const folder = path.dirname(file)
  await fs.mkdir(folder, { recursive: true })
  const temp = path.join(folder, `.${path.basename(file)}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`)
  const handle = await fs.open(temp, 'wx')
  try {
    await handle.writeFile(content)
    await handle.sync()
  } catch (error) {
    await handle.close()
    await fs.rm(temp, { force: true })
    throw error
  }
  await handle.close()
  try {
    await fs.rename(temp, file)
  } catch (error) {
    await fs.rm(temp, { force: true })
    throw error
  }
}
