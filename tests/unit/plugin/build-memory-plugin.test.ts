import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { buildMemoryPlugin, collectGarbage } from '../../../plugin/build-memory-plugin.js'

const heapMiB = () => process.memoryUsage().heapUsed / 1048576

/** Leaves about 60 MiB of objects behind, old enough to be out of the young generation. */
function leaveGarbage(): void {
  let junk: { index: number; label: string }[] | null = Array.from({ length: 1_000_000 }, (_, index) => ({ index, label: `item ${index}` }))
  expect(junk.length).toBe(1_000_000)
  junk = null
}

describe('the build-memory plugin', () => {
  it('gets a full collection from the runtime, and leaves no gc to contexts made later', () => {
    const collect = collectGarbage()
    expect(collect).toBeTypeOf('function')
    collect!()
    const before = heapMiB()
    leaveGarbage()
    const left = heapMiB()
    collect!()
    expect(left - before).toBeGreaterThan(30)
    expect(heapMiB()).toBeLessThan(left - 30)
    expect(vm.runInNewContext('typeof gc')).toBe('undefined')
  })

  it('collects once the server bundle is written, before the render, and only in a build with a heap worth collecting', () => {
    const closingBundles = (plugin: ReturnType<typeof buildMemoryPlugin>) => {
      const configResolved = plugin.configResolved as (config: { build: { ssr: boolean } }) => void
      const closeBundle = plugin.closeBundle as () => void
      // The client bundle, then the server's: VitePress builds them one after the other with the same plugins.
      configResolved({ build: { ssr: false } })
      closeBundle()
      configResolved({ build: { ssr: true } })
      closeBundle()
      return closeBundle
    }
    expect(buildMemoryPlugin().apply).toBe('build')
    collectGarbage()!()

    const small = closingBundles(buildMemoryPlugin({ collectAboveBytes: process.memoryUsage().heapUsed + 512 * 1048576 }))
    const before = heapMiB()
    leaveGarbage()
    const left = heapMiB()
    small()
    expect(left - before).toBeGreaterThan(30)
    expect(heapMiB()).toBeGreaterThan(left - 30)

    const large = closingBundles(buildMemoryPlugin({ collectAboveBytes: 0 }))
    large()
    expect(heapMiB()).toBeLessThan(left - 30)
  })
})
