import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { confineIncludes, includeTarget } from '../../../../plugin/harden/includes.js'
import { sourceRefusal } from '../../../../plugin/harden/source-confinement.js'
import { makeTempDir } from '../../../helpers/dev-server.js'

let site: string
let page: string

beforeAll(async () => {
  const root = await makeTempDir('includes')
  site = path.join(root, 'docs')
  await fs.mkdir(path.join(site, 'parts'), { recursive: true })
  await fs.writeFile(path.join(root, 'secret.txt'), 'secret')
  await fs.writeFile(path.join(site, '.env'), 'OPENAI_API_KEY=sk-x')
  await fs.writeFile(path.join(site, 'parts/ok.md'), 'ok')
  await fs.writeFile(path.join(site, 'parts/deep.md'), '<!--@include: ./ok.md-->\n<!--@include: ./loop.md-->')
  await fs.writeFile(path.join(site, 'parts/loop.md'), '<!--@include: ./deep.md-->')
  await fs.writeFile(path.join(site, 'parts/bad.md'), '<!--@include: ./ok.md-->\n<!--@include: ../../secret.txt-->')
  await fs.symlink(path.join(root, 'secret.txt'), path.join(site, 'parts/out.txt'))
  await fs.symlink(path.join(site, '.env'), path.join(site, 'parts/env.txt'))
  page = path.join(site, 'posts/page.md')
})

afterAll(async () => {
  await fs.rm(path.dirname(site), { recursive: true, force: true })
})

describe('includeTarget', () => {
  it('resolves like VitePress: relative to the page, @/ from the source folder, region and range stripped', () => {
    expect(includeTarget(site, page, '../parts/ok.md#intro')).toBe(path.join(site, 'parts/ok.md'))
    expect(includeTarget(site, page, '@/parts/ok.md{2,5}')).toBe(path.join(site, 'parts/ok.md'))
    expect(includeTarget(site, page, '@parts/ok.md')).toBe(path.join(site, 'parts/ok.md'))
  })
})

describe('sourceRefusal', () => {
  it.each([
    ['../../secret.txt', 'outside the source folder'],
    ['../.env', '".env"'],
    ['../.vitepress/config.ts', '".vitepress"'],
    ['../node_modules/x/readme.md', '"node_modules"'],
    ['../parts/out.txt', 'a symlink leads outside'],
    ['../parts/env.txt', 'a symlink leads into ".env"'],
  ])('refuses %s', (spec, reason) => {
    expect(sourceRefusal(site, includeTarget(site, page, spec))).toContain(reason)
  })

  it('allows a page inside, and leaves a missing one to VitePress', () => {
    expect(sourceRefusal(site, path.join(site, 'parts/ok.md'))).toBeNull()
    expect(sourceRefusal(site, path.join(site, 'parts/missing.md'))).toBeNull()
  })
})

describe('confineIncludes', () => {
  it('replaces each refused include with an inert comment naming it, and leaves allowed ones', () => {
    const source = 'A\n<!--@include: ../.env-->\n```\n<!-- @include: ../../secret.txt -->\n```\n<!--@include: ../parts/ok.md-->\n'
    const { source: confined, refused } = confineIncludes(source, page, site)
    expect(refused.map((entry) => entry.spec)).toEqual(['../.env', '../../secret.txt'])
    expect(confined).toContain('<!-- metablog refused the include "../.env":')
    expect(confined).toContain('<!--@include: ../parts/ok.md-->')
    expect(confined.match(/<!--\s*@include:/g)).toHaveLength(1)
  })

  it('refuses an allowed file that includes a refused one, and follows loops without hanging', () => {
    expect(confineIncludes('<!--@include: ../parts/bad.md-->', page, site).refused[0]!.reason).toContain('it includes "../../secret.txt"')
    expect(confineIncludes('<!--@include: ../parts/deep.md-->', page, site).refused[0]!.reason).toContain('nested more than')
  })

  it('never leaves a name that VitePress could read as an include again', () => {
    const { source } = confineIncludes('<!--@include: <!--@include: ../.env-->', page, site)
    expect(source).not.toMatch(/<!--\s*@include:/)
  })

  it('returns the very same string when nothing is refused', () => {
    const source = 'x <!--@include: ../parts/ok.md--> y'
    expect(confineIncludes(source, page, site).source).toBe(source)
  })
})
