import fs from 'node:fs/promises'
import path from 'node:path'
import { MetaBlogError } from './errors.js'

const MAX_PATH_LENGTH = 512
// Backslash, colon, NUL and other control characters, and any leftover %-encoding.
const FORBIDDEN_CHARACTERS = /[\\:%\u0000-\u001f\u007f]/
const RESERVED_FOLDERS = new Set(['node_modules'])

export interface SafePath {
  /** The page path relative to the source dir, with `/`. */
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
    if (RESERVED_FOLDERS.has(segment.toLowerCase())) reject(input, 'it points into node_modules')
  }
  return input
}

async function realpathOfDeepestExisting(absolute: string): Promise<string> {
  let current = absolute
  const rest: string[] = []
  for (;;) {
    try {
      return path.join(await fs.realpath(current), ...rest)
    } catch (error) {
      const parent = path.dirname(current)
      if (parent === current) throw error
      rest.unshift(path.basename(current))
      current = parent
    }
  }
}

function isInside(folder: string, candidate: string): boolean {
  const relative = path.relative(folder, candidate)
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)
}

/**
 * Resolves a page path inside the source dir, refusing anything that could leave it:
 * path tricks, reserved folders, and symlinks (of folders or of the page) pointing outside.
 */
export async function resolvePagePath(sourceDir: string, input: unknown): Promise<SafePath> {
  const relative = checkPagePath(input)
  const root = await fs.realpath(sourceDir)
  const absolute = path.join(root, ...relative.split('/'))
  if (!isInside(root, absolute)) reject(input, 'it leaves the source folder')
  const real = await realpathOfDeepestExisting(absolute)
  if (!isInside(root, real)) reject(input, 'it passes through a symlink that leaves the source folder')
  return { relative, absolute }
}
