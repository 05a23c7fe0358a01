import { existsSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { clientDepsPlugin } from '../../../plugin/client-deps-plugin.js'
import { ASSISTANT_MODULE_ID, RESOLVED_ASSISTANT_MODULE_ID } from '../../../plugin/virtual-modules.js'
import { REPO_ROOT } from '../../helpers/dev-server.js'

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

  it("is the dev bundle's assistant under the dev server, a file the package's build makes", () => {
    const source = assistantModule('serve')
    const file = /import \* as assistant from "([^"]+)"/.exec(source)?.[1]
    expect(file).toMatch(/client[\\/]dev[\\/]dev-assistant\.js$/)
    // Named beside the plugin: in dist/ once built (npm test builds first), where it exists.
    expect(existsSync(path.join(REPO_ROOT, 'dist/client/dev/dev-assistant.js'))).toBe(true)
  })

  it('leaves other ids alone', () => {
    const plugin = clientDepsPlugin()
    expect((plugin.resolveId as Hook)('virtual:other')).toBeUndefined()
    expect((plugin.load as Hook)('virtual:other')).toBeUndefined()
  })
})
