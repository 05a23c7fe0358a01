import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MetaBlogError } from '../../../server/errors.js'
import { checkPagePath, resolvePagePath } from '../../../server/safe-path.js'

let site: string
let outside: string

beforeAll(async () => {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-safe-path-'))
  site = path.join(base, 'site')
  outside = path.join(base, 'outside')
  await fs.mkdir(path.join(site, 'posts'), { recursive: true })
  await fs.mkdir(outside)
  await fs.writeFile(path.join(outside, 'secret.md'), 'secret')
  await fs.symlink(outside, path.join(site, 'escape'))
  await fs.symlink(path.join(outside, 'secret.md'), path.join(site, 'posts', 'linked.md'))
  await fs.mkdir(path.join(site, 'inner'))
  await fs.symlink(path.join(site, 'inner'), path.join(site, 'alias'))
  // Dangling links: their targets do not exist (yet), so only following them by hand catches them.
  await fs.symlink('../outside/x.md', path.join(site, 'dangling.md'))
  await fs.symlink('../outside/not-yet', path.join(site, 'future'))
  await fs.symlink(path.join(outside, 'not-yet', 'deep'), path.join(site, 'posts', 'absolute-future'))
  await fs.symlink('inner/new.md', path.join(site, 'inside-dangling.md'))
  await fs.symlink('loop-b.md', path.join(site, 'loop-a.md'))
  await fs.symlink('loop-a.md', path.join(site, 'loop-b.md'))
  await fs.symlink('../../site/inner', path.join(site, 'posts', 'round-trip'))
  await fs.mkdir(path.join(site, '.vitepress'))
  await fs.symlink('.vitepress', path.join(site, 'cfg'))
  await fs.writeFile(path.join(site, 'inner', 'notes.txt'), 'not a page')
  await fs.symlink('inner/notes.txt', path.join(site, 'text.md'))
})

afterAll(async () => {
  await fs.rm(path.dirname(site), { recursive: true, force: true })
})

function codeOf(action: () => unknown): string | undefined {
  try {
    action()
  } catch (error) {
    return (error as MetaBlogError).code
  }
  return undefined
}

describe('checkPagePath', () => {
  it.each(['index.md', 'posts/hello.md', 'zh/你好.md', 'a b/c-d_e.md', 'notes/v1.2.md'])('accepts %s', (input) => {
    expect(checkPagePath(input)).toBe(input)
  })

  it.each([
    ['', 'empty'],
    ['posts/hello.txt', 'not markdown'],
    ['posts/hello.MD', 'upper-case extension'],
    ['/etc/passwd.md', 'absolute'],
    ['../up.md', 'parent'],
    ['posts/../../up.md', 'inner parent'],
    ['./index.md', 'dot segment'],
    ['posts//hello.md', 'empty segment'],
    ['posts\\hello.md', 'backslash'],
    ['C:/hello.md', 'drive letter'],
    ['posts/%2e%2e/hello.md', 'encoded dots'],
    ['hello.md\u0000.md', 'NUL'],
    ['.vitepress/config.md', 'vitepress folder'],
    ['node_modules/x/readme.md', 'node_modules'],
    ['posts/.hidden/x.md', 'dot folder'],
    ['posts./x.md', 'trailing dot folder'],
    ['hello.md.', 'trailing dot'],
    [' posts/x.md', 'leading space'],
    ['x'.repeat(600) + '.md', 'too long'],
    ['posts/\ud800.md', 'lone high surrogate'],
    ['\udc00posts/x.md', 'lone low surrogate'],
    ['posts/a\ud83d.md', 'high surrogate without its pair'],
    ['NODE_M~1/x/readme.md', '8.3 short name of node_modules'],
    ['VITEPR~1/config.md', '8.3 short name of .vitepress'],
    ['posts/HELLOW~1.md', '8.3 short name of a page'],
    ['posts/abc~12.md', '8.3 short name with two digits'],
    ['node_m~1/x.md', 'lower-case 8.3 short name'],
  ])('rejects %j (%s)', (input) => {
    expect(codeOf(() => checkPagePath(input))).toBe('ERR_BAD_PATH')
  })

  it.each(['notes/a~b.md', 'posts/long-name~1-draft.md', 'posts/😀.md', 'posts/\ufffd.md', 'posts/v~.md'])('accepts %j, which is no 8.3 name and no lone surrogate', (input) => {
    expect(checkPagePath(input)).toBe(input)
  })

  it('names a page in NFC, however its accents are composed', () => {
    const composed = 'posts/caf\u00e9.md'
    expect(checkPagePath('posts/cafe\u0301.md')).toBe(composed)
    expect(checkPagePath(composed)).toBe(composed)
  })

  it('refuses a lone surrogate rather than letting it stand for U+FFFD', () => {
    // The file system stores a lone surrogate as U+FFFD: two names, one file, two lock keys.
    expect(codeOf(() => checkPagePath('posts/\ud800.md'))).toBe('ERR_BAD_PATH')
    expect(checkPagePath('posts/\ufffd.md')).toBe('posts/\ufffd.md')
  })

  it('rejects non-strings', () => {
    expect(codeOf(() => checkPagePath(42))).toBe('ERR_BAD_PATH')
    expect(codeOf(() => checkPagePath(undefined))).toBe('ERR_BAD_PATH')
  })
})

describe('resolvePagePath', () => {
  it('joins a good path onto the real source dir', async () => {
    const resolved = await resolvePagePath(site, 'posts/new.md')
    expect(resolved.relative).toBe('posts/new.md')
    expect(resolved.absolute).toBe(path.join(await fs.realpath(site), 'posts', 'new.md'))
  })

  it('refuses a folder symlink that leaves the site, for existing and new pages', async () => {
    await expect(resolvePagePath(site, 'escape/secret.md')).rejects.toMatchObject({ code: 'ERR_BAD_PATH' })
    await expect(resolvePagePath(site, 'escape/new/deeper.md')).rejects.toMatchObject({ code: 'ERR_BAD_PATH' })
  })

  it('refuses a page symlink that points outside', async () => {
    await expect(resolvePagePath(site, 'posts/linked.md')).rejects.toMatchObject({ code: 'ERR_BAD_PATH' })
  })

  it('allows a symlink that stays inside the site, naming the page by where it leads', async () => {
    // One page, one name: locks, the write queue and events all see 'inner/page.md'.
    await expect(resolvePagePath(site, 'alias/page.md')).resolves.toMatchObject({ relative: 'inner/page.md' })
  })

  it('refuses a symlink inside the site that leads to a reserved folder or a file that is not a page', async () => {
    await expect(resolvePagePath(site, 'cfg/x.md')).rejects.toMatchObject({ code: 'ERR_BAD_PATH' })
    await expect(resolvePagePath(site, 'text.md')).rejects.toMatchObject({ code: 'ERR_BAD_PATH' })
  })

  it('refuses a file name longer than file systems take', () => {
    expect(checkPagePath(`posts/${'n'.repeat(197)}.md`)).toBe(`posts/${'n'.repeat(197)}.md`)
    expect(() => checkPagePath(`posts/${'n'.repeat(198)}.md`)).toThrow(/longer than 200 bytes/)
    expect(() => checkPagePath(`posts/${'文'.repeat(70)}.md`)).toThrow(/longer than 200 bytes/)
  })

  it('refuses a dangling page symlink whose target would be outside', async () => {
    await expect(resolvePagePath(site, 'dangling.md')).rejects.toMatchObject({ code: 'ERR_BAD_PATH' })
  })

  it('refuses a folder symlink to an outside folder that does not exist yet', async () => {
    await expect(resolvePagePath(site, 'future/page.md')).rejects.toMatchObject({ code: 'ERR_BAD_PATH' })
    await expect(resolvePagePath(site, 'future/deeper/page.md')).rejects.toMatchObject({ code: 'ERR_BAD_PATH' })
    await expect(resolvePagePath(site, 'posts/absolute-future/page.md')).rejects.toMatchObject({ code: 'ERR_BAD_PATH' })
  })

  it('refuses a symlink loop', async () => {
    await expect(resolvePagePath(site, 'loop-a.md')).rejects.toMatchObject({ code: 'ERR_BAD_PATH' })
  })

  it('finds a page whose name is spelled in NFD on disk, and names it in NFC', async () => {
    await fs.writeFile(path.join(site, 'inner', 'cre\u0300me.md'), 'decomposed')
    const real = await fs.realpath(site)
    for (const spelling of ['inner/cr\u00e8me.md', 'inner/cre\u0300me.md']) {
      const resolved = await resolvePagePath(site, spelling)
      expect(resolved.relative).toBe('inner/cr\u00e8me.md')
      expect(resolved.absolute).toBe(path.join(real, 'inner', 'cre\u0300me.md'))
    }
  })

  it('allows dangling and round-trip symlinks that stay inside', async () => {
    await expect(resolvePagePath(site, 'inside-dangling.md')).resolves.toMatchObject({ relative: 'inner/new.md' })
    await expect(resolvePagePath(site, 'posts/round-trip/page.md')).resolves.toMatchObject({ relative: 'inner/page.md' })
  })
})
