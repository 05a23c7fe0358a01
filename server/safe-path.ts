import fs from 'node:fs/promises'
import path from 'node:path'
import { MetaBlogError, isErrnoException } from './errors.js'

const MAX_PATH_LENGTH = 512
// File systems refuse longer names (in bytes); the temp file beside a page adds its own suffix.
const MAX_SEGMENT_BYTES = 200
// Backslash, colon, NUL and other control characters, and any leftover %-encoding.
const FORBIDDEN_CHARACTERS = /[\\:%\u0000-\u001f\u007f]/
// Never pages: dependencies. Dot-folders (.vitepress, .git) are refused and skipped too.
const SKIPPED_FOLDERS = new Set(['node_modules'])

/** A folder the page walkers skip and page paths may not enter. */
export function isSkippedFolder(name: string): boolean {
  return name.startsWith('.') || SKIPPED_FOLDERS.has(name.toLowerCase())
}

export interface SafePath {
  /**
   * The page path relative to the source dir, with `/`. A path through a symlink that stays inside
   * is given as where it leads, so one page has one name for locks, writes and events.
   */
  relative: string
  /** The absolute path on disk (the source dir's real path joined with `relative`). */
  absolute: string
}

function reject(input: unknown, reason: string): never {
  throw new MetaBlogError(
    'ERR_BAD_PATH',
    `Invalid page path ${JSON.stringify(String(input).slice(0, 200))}: ${reason}. ` +
      'Use a path relative to the site source folder, with "/" separators, ending in ".md", such as "posts/my-post.md".',
  )
}

/** Checks the shape of a page path without touching the disk. */
export function checkPagePath(input: unknown): string {
  if (typeof input !== 'string' || input.length === 0) reject(input, 'it must be a non-empty string')
  if (input.length > MAX_PATH_LENGTH) reject(input, `it is longer than ${MAX_PATH_LENGTH} characters`)
  if (FORBIDDEN_CHARACTERS.test(input)) reject(input, 'it contains a backslash, colon, "%", NUL or control character')
  if (!input.endsWith('.md')) reject(input, 'only Markdown pages ending in ".md" can be read or written')
  for (const segment of input.split('/')) {
    if (segment === '') reject(input, 'it is absolute or has an empty segment')
    if (segment.startsWith('.')) reject(input, 'it contains ".", ".." or a dot-folder such as ".vitepress"')
    if (segment.endsWith('.')) reject(input, 'a segment ends in "."')
    if (segment.trim() !== segment) reject(input, 'a segment starts or ends with white space')
    if (SKIPPED_FOLDERS.has(segment.toLowerCase())) reject(input, 'it points into node_modules')
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) reject(input, `a file or folder name is longer than ${MAX_SEGMENT_BYTES} bytes`)
  }
  return input
}

// Symlinks followed for one path before giving up, as the kernel's own limit (40 on Linux).
const MAX_LINK_HOPS = 40

function isInside(folder: string, candidate: string): boolean {
  const relative = path.relative(folder, candidate)
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)
}

/**
 * Where `segments` lead from `root` once every symlink is followed, even a dangling one:
 * each existing segment is lstat-ed, a symlink's target is read and walked in its place
 * (relative to the link's folder), and the part that does not exist yet is joined as is.
 */
async function followLinks(root: string, segments: string[]): Promise<string> {
  let current = root
  const rest = [...segments]
  let hops = 0
  while (rest.length > 0) {
    const segment = rest.shift()!
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      current = path.dirname(current)
      continue
    }
    const next = path.join(current, segment)
    let stats
    try {
      stats = await fs.lstat(next)
    } catch (error) {
      // Nothing exists from here on, so no symlink can redirect what is left.
      if (isErrnoException(error) && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) return path.join(next, ...rest)
      throw error
    }
    if (!stats.isSymbolicLink()) {
      current = next
      continue
    }
    if (++hops > MAX_LINK_HOPS) throw Object.assign(new Error('too many symlinks'), { code: 'ELOOP' })
    const target = await fs.readlink(next)
    if (path.isAbsolute(target)) current = path.parse(target).root
    // Only Windows reads a backslash as a separator; elsewhere it is part of a name.
    rest.unshift(...target.split(path.sep === '/' ? '/' : /[\\/]/))
  }
  return current
}

/**
 * Resolves a page path inside the source dir, refusing anything that could leave it:
 * path tricks, reserved folders, and symlinks (of folders or of the page, dangling or not)
 * pointing outside.
 */
export async function resolvePagePath(sourceDir: string, input: unknown): Promise<SafePath> {
  const relative = checkPagePath(input)
  const root = await fs.realpath(sourceDir)
  const segments = relative.split('/')
  const absolute = path.join(root, ...segments)
  if (!isInside(root, absolute)) reject(input, 'it leaves the source folder')
  let real: string
  try {
    real = await followLinks(root, segments)
  } catch (error) {
    // A symlink loop or a folder we may not read: nothing can vouch for where the path leads.
    reject(input, `its symlinks could not be followed (${isErrnoException(error) ? error.code : 'error'})`)
  }
  if (!isInside(root, real)) reject(input, 'it passes through a symlink that leaves the source folder')
  if (real === absolute) return { relative, absolute }
  // Through a symlink: where it leads must itself be a page path (not .vitepress/, not a .js file).
  const canonical = path.relative(root, real).split(path.sep).join('/')
  try {
    checkPagePath(canonical)
  } catch {
    reject(input, `it passes through a symlink to ${JSON.stringify(canonical.slice(0, 200))}, which is not a page path`)
  }
  return { relative: canonical, absolute: real }
}
