import { describe, expect, it } from 'vitest'
import { ClientError } from '../../../../client/api/errors'
import { defineTool, executeToolCall, toolSet, toolSpecs, type ToolContext } from '../../../../client/runtime/define-tool'

const echo = defineTool({
  name: 'echo',
  description: 'Echoes its text.',
  category: 'read',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  async execute({ text }: { text: string }) {
    if (text === 'fail') throw new ClientError('ERR_NOT_FOUND', 'There is no such page.')
    if (text === 'crash') throw new TypeError('x is undefined')
    return { text }
  },
  describe: ({ text }) => `Echoed ${text}`,
})
const tools = toolSet([echo])
const context = (signal = new AbortController().signal) => ({ signal }) as unknown as ToolContext
const run = (name: string, args: Record<string, unknown> | null, error?: string) => executeToolCall(tools, { id: 'c1', name, arguments: args, error }, context())

describe('executeToolCall', () => {
  it('runs a tool with valid arguments', async () => {
    expect(await run('echo', { text: 'hi' })).toEqual({ ok: true, result: { text: 'hi' }, summary: 'Echoed hi' })
  })

  it('turns an unknown tool, including inherited names, into an error listing the real ones', async () => {
    for (const name of ['nope', 'constructor', '__proto__', 'toString']) {
      const outcome = await run(name, {})
      expect(outcome).toMatchObject({ ok: false, error: { code: 'ERR_UNKNOWN_TOOL' } })
      expect(!outcome.ok && outcome.error.message).toContain('echo')
    }
  })

  it('turns unreadable or schema-breaking arguments into ERR_BAD_ARGUMENTS', async () => {
    expect(await run('echo', null, 'Unexpected token')).toMatchObject({ ok: false, error: { code: 'ERR_BAD_ARGUMENTS', message: expect.stringContaining('Unexpected token') } })
    expect(await run('echo', { text: 3 })).toMatchObject({ ok: false, error: { code: 'ERR_BAD_ARGUMENTS', message: expect.stringContaining('arguments.text must be a string') } })
  })

  it('turns a throwing tool into data: its code, or ERR_TOOL', async () => {
    expect(await run('echo', { text: 'fail' })).toMatchObject({ ok: false, error: { code: 'ERR_NOT_FOUND', message: 'There is no such page.' } })
    expect(await run('echo', { text: 'crash' })).toMatchObject({ ok: false, error: { code: 'ERR_TOOL', message: 'x is undefined' } })
  })

  it('lets a stop through instead of reporting it to the model', async () => {
    const controller = new AbortController()
    const slow = defineTool({ ...echo, name: 'slow', execute: () => new Promise((_, reject) => controller.signal.addEventListener('abort', () => reject(new Error('aborted')))) })
    const running = executeToolCall(toolSet([slow]), { id: 'c2', name: 'slow', arguments: { text: 'x' } }, context(controller.signal))
    controller.abort(new DOMException('Stopped by the author.', 'AbortError'))
    await expect(running).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('offers tools in the chat-completions shape', () => {
    expect(toolSpecs([echo])).toEqual([{ type: 'function', function: { name: 'echo', description: 'Echoes its text.', parameters: echo.parameters } }])
  })
})
