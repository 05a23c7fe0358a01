import { describe, expect, it } from 'vitest'
import { MAX_FRONT_MATTER_VALUES, safeEngines } from '../../../../server/front-matter-engines.js'
import { findBundledMatter, hardenBundledMatter } from '../../../../plugin/harden/front-matter-engines.js'
import { aliasBomb, javascriptFrontMatter } from '../../../fixtures/hardening/hostile-site.js'

const globals = globalThis as Record<string, unknown>

describe('safeEngines', () => {
  it('parses YAML as before, dates included', () => {
    expect(safeEngines().yaml!.parse('title: Hi\ndate: 2024-05-01\ntags: [a, b]')).toEqual({ title: 'Hi', date: new Date('2024-05-01'), tags: ['a', 'b'] })
  })

  it('refuses a YAML alias bomb in milliseconds, and keeps a few honest aliases', () => {
    const yaml = aliasBomb().split('---\n')[1]!
    const started = performance.now()
    expect(() => safeEngines().yaml!.parse(yaml)).toThrow(`expands to more than ${MAX_FRONT_MATTER_VALUES} values`)
    expect(performance.now() - started).toBeLessThan(500)
    expect(safeEngines().yaml!.parse('base: &base { a: 1 }\none: *base\ntwo: *base')).toEqual({ base: { a: 1 }, one: { a: 1 }, two: { a: 1 } })
  })
})

describe('hardenBundledMatter: the gray-matter VitePress bundles', () => {
  it('is found, and after hardening refuses JavaScript and alias bombs even when called without options', async () => {
    const matter = await findBundledMatter()
    expect(matter).not.toBeNull()
    const yaml = await hardenBundledMatter()
    expect(yaml).not.toBeNull()
    // The parser it answers (MetaBlog's own front matter engine in VitePress's render) is the bounded one.
    expect(yaml!('a: 1')).toEqual({ a: 1 })
    expect(() => yaml!(aliasBomb().split('---\n')[1]!)).toThrow(/expands to more than/)
    // Without options, as VitePress calls it for included pages, content loaders and the sitemap.
    expect(() => matter!(javascriptFrontMatter('js', '__metablogBundledRan'))).toThrow(/YAML front matter only/)
    expect(() => matter!(javascriptFrontMatter('javascript', '__metablogBundledRan'))).toThrow(/YAML front matter only/)
    expect(globals.__metablogBundledRan).toBeUndefined()
    expect(() => matter!(aliasBomb())).toThrow(/expands to more than/)
    expect(matter!('---\ntitle: Fine\n---\nbody')).toMatchObject({ data: { title: 'Fine' } })
  })

  it.each(['JS', 'Javascript', ' js', 'json', 'JSON', 'coffee', 'cson', 'toml', 'constructor', '__proto__'])(
    'never runs code for ---%s, whatever gray-matter makes of the name',
    async (fence) => {
      const matter = (await findBundledMatter())!
      await hardenBundledMatter()
      const marker = `__metablogFence${fence.trim()}`
      try {
        matter(javascriptFrontMatter(fence, marker))
      } catch {
        // Refused or unknown engine: either way, an error for the page.
      }
      expect(globals[marker]).toBeUndefined()
    },
  )

  it('can run twice without wrapping YAML twice', async () => {
    expect(await hardenBundledMatter()).not.toBeNull()
    const matter = await findBundledMatter()
    const yaml = matter!.engines.yaml as { parse: (text: string) => unknown }
    expect(yaml.parse('a: 1')).toEqual({ a: 1 })
    expect(await hardenBundledMatter()).not.toBeNull()
    expect(matter!.engines.yaml).toBe(yaml)
  })
})
