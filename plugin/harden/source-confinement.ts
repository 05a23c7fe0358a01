import fs from 'node:fs'
import path from 'node:path'
import { isSkippedFolder } from '../../server/safe-path.js'

function isOutside(folder: string, candidate: string): boolean {
  const relative = path.relative(folder, candidate)
  return relative.startsWith('..') || path.isAbsolute(relative)
}

function skippedSegment(folder: string, candidate: string): string | undefined {
  return path.relative(folder, candidate).split(path.sep).find(isSkippedFolder)
}

function realPath(file: string): string | null {
  try {
    return fs.realpathSync(file)
  } catch {
    return null
  }
}

/**
 * Why `file` may not be pulled into a page (an include or a `<<<` snippet), or null when it may:
 * it must stay inside the source folder, also once symlinks are followed, and never be a dotfile
 * or sit in a dot-folder or node_modules (.env, .vitepress/config.ts, .git).
 */
export function sourceRefusal(sourceDir: string, file: string): string | null {
  const folder = path.resolve(sourceDir)
  const target = path.resolve(file)
  if (isOutside(folder, target)) return 'it is outside the source folder'
  const skipped = skippedSegment(folder, target)
  if (skipped) return `"${skipped}" is a dotfile, a dot-folder or node_modules`
  const real = realPath(target)
  // A missing file is VitePress's own "not found"; nothing is read.
  if (real === null) return null
  const realFolder = realPath(folder) ?? folder
  if (isOutside(realFolder, real)) return 'a symlink leads outside the source folder'
  const realSkipped = skippedSegment(realFolder, real)
  if (realSkipped) return `a symlink leads into "${realSkipped}"`
  return null
}

/** A file name safe to show inside an HTML comment or code: no markup, no comment end. */
export function inertName(name: string): string {
  return name
    .slice(0, 200)
    .replace(/[<>&`{}]/g, '_')
    .replace(/-{2,}/g, '-')
}
