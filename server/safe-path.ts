import fsSync from 'node:fs'
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
// A lone UTF-16 surrogate: the file system would store it as U+FFFD, so two strings would name one file.
const LONE_SURROGATE = /\p{Cs}/u

/**
 * A Windows 8.3 short name (`NODE_M~1`, `VITEPR~1`, `POST~12.MD`): on Windows it is another name
 * for a long one, such as node_modules or .vitepress, so it could reach what the long name may not.
 */
function isShortName(segment: string): boolean {
  const dot = segment.lastIndexOf('.')
  const base = dot === -1 ? segment : segment.slice(0, dot)
  const extension = dot === -1 ? '' : segment.slice(dot + 1)
  return base.length <= 8 && extension.length <= 3 && !base.includes('.') && /~\d/.test(base)
}

/** Why one file or folder name may not be part of a page path; null when it may. */
function segmentProblem(segment: string): string | null {
  if (segment === '') return 'it is absolute or has an empty segment'
  if (segment.startsWith('.')) return 'it contains ".", ".." or a dot-folder such as ".vitepress"'
  if (segment.endsWith('.')) return 'a segment ends in "."'
  if (segment.trim() !== segment) return 'a segment starts or ends with white space'
  if (SKIPPED_FOLDERS.has(segment.toLowerCase())) return 'it points into node_modules'
  if (isShortName(segment)) return 'a segment looks like a Windows 8.3 short name (such as "NODE_M~1"), which can stand for another folder'
  if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) return `a file or folder name is longer than ${MAX_SEGMENT_BYTES} bytes`
  return null
}

/**
 * A folder the page walkers skip: one whose name could not be part of a page path
 * (dot-folders such as .vitepress, node_modules, 8.3 short names).
 */
export function isSkippedFolder(name: string): boolean {
  return segmentProblem(name.normalize('NFC')) !== null
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

/**
 * Checks the shape of a page path without touching the disk, and returns it in NFC: one page has
 * one name (and one lock key) however its accents were composed.
 */
export function checkPagePath(input: unknown): string {
  if (typeof input !== 'string' || input.length === 0) reject(input, 'it must be a non-empty string')
  if (input.length > MAX_PATH_LENGTH) reject(input, `it is longer than ${MAX_PATH_LENGTH} characters`)
  if (LONE_SURROGATE.test(input)) reject(input, 'it contains a lone UTF-16 surrogate, which is not a character')
  const normalized = input.normalize('NFC')
  if (FORBIDDEN_CHARACTERS.test(normalized)) reject(input, 'it contains a backslash, colon, "%", NUL or control character')
  if (!normalized.endsWith('.md')) reject(input, 'only Markdown pages ending in ".md" can be read or written')
  for (const segment of normalized.split('/')) {
    const problem = segmentProblem(segment)
    if (problem) reject(input, problem)
  }
  return normalized
}

/** The page name of a file found on disk (relative, with '/'), or null when it is not a page MetaBlog serves. */
export function pageNameOf(relative: string): string | null {
  try {
    return checkPagePath(relative)
  } catch {
    return null
  }
}

// Symlinks followed for one path before giving up, as the kernel's own limit (40 on Linux).
const MAX_LINK_HOPS = 40

function isInside(folder: string, candidate: string): boolean {
  const relative = path.relative(folder, candidate)
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)
}

const NOT_ASCII = /[^\u0000-\u007f]/

/** The name in `folder` that is `name` once in NFC, when it is spelled differently there; else null. */
async function spellingOnDisk(folder: string, name: string): Promise<string | null> {
  if (!NOT_ASCII.test(name)) return null
  let entries: string[]
  try {
    entries = await fs.readdir(folder)
  } catch {
    return null
  }
  return entries.find((entry) => entry !== name && entry.normalize('NFC') === name) ?? null
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
    let next = path.join(current, segment)
    let stats
    try {
      try {
        // Sync on purpose, here and below: an lstat takes microseconds, a thread-pool round trip a millisecond under load.
        stats = fsSync.lstatSync(next)
      } catch (error) {
        // The name asked for is NFC; the file may be spelled otherwise on disk (an editor wrote NFD).
        const spelled = isErrnoException(error) && error.code === 'ENOENT' ? await spellingOnDisk(current, segment) : null
        if (spelled === null) throw error
        next = path.join(current, spelled)
        stats = fsSync.lstatSync(next)
      }
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
    const target = fsSync.readlinkSync(next)
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
  const root = fsSync.realpathSync(sourceDir)
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
  const onDisk = path.relative(root, real).split(path.sep).join('/')
  const canonical = pageNameOf(onDisk)
  if (canonical === null) reject(input, `it passes through a symlink to ${JSON.stringify(onDisk.slice(0, 200))}, which is not a page path`)
  return { relative: canonical, absolute: real }
}
