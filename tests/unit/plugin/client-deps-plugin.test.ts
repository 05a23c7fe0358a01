import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { clientDepsPlugin } from '../../../plugin/client-deps-plugin.js'
import { ASSISTANT_MODULE_ID, RESOLVED_ASSISTANT_MODULE_ID } from '../../../plugin/virtual-modules.js'

type Hook = (...args: unknown[]) => unknown

function assistantModule(command: 'serve' | 'build'): string {
  const plugin = clientDepsPlugin()
  ;(plugin.config as Hook)({}, { command, mode: command === 'build' ? 'production' : 'development' })
  expect((plugin.resolveId as Hook)(ASSISTANT_MODULE_ID)).toBe(RESOLVED_ASSISTANT_MODULE_ID)
  return (plugin.load as Hook)(RESOLVED_ASSISTANT_MODULE_ID) as string
}

describe('the dev-only client module', () => {
  it('is null in a build, so Rollup loads none of the writer UI', () => {
    expect(assistantModule('build')).toBe('export default null')
  })

  it('is the dev assistant under the dev server, a file that exists next to the plugin', () => {
    const source = assistantModule('serve')
    const file = /import \* as assistant from "([^"]+)"/.exec(source)?.[1]
    expect(file).toMatch(/client[\\/]dev-assistant\.js$/)
    // Run from the sources the file is the compiled one in dist/ only once built; its .ts twin is always there.
    expect(existsSync(file!) || existsSync(file!.replace(/\.js$/, '.ts'))).toBe(true)
  })

  it('leaves other ids alone', () => {
    const plugin = clientDepsPlugin()
    expect((plugin.resolveId as Hook)('virtual:other')).toBeUndefined()
    expect((plugin.load as Hook)('virtual:other')).toBeUndefined()
  })
})
