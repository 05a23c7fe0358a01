import fs from 'node:fs/promises'
import { isErrnoException } from './errors.js'

/** The names in a state folder; none while the folder does not exist yet. */
export async function folderNames(folder: string): Promise<string[]> {
  try {
    return await fs.readdir(folder)
  } catch (error) {
    if (isErrnoException(error) && error.code === 'ENOENT') return []
    throw error
  }
}

/** Removes a state file; false when it was already gone. */
export async function removeFile(file: string): Promise<boolean> {
  try {
    await fs.rm(file)
    return true
  } catch (error) {
    if (isErrnoException(error) && error.code === 'ENOENT') return false
    throw error
  }
}
