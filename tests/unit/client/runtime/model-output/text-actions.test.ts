import { describe, expect, it } from 'vitest'
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources'
import { parseTextActions, toTextProtocol, visibleText } from '../../../../../client/runtime/model-output/text-actions.js'

const NAMES = ['read_page', 'edit_page']
const TOOLS: ChatCompletionTool[] = NAMES.map((name) => ({ type: 'function', function: { name, description: `The ${name} tool.`, parameters: { type: 'object', properties: { path: { type: 'string' } } } } }))

describe('parseTextActions', () => {
  it('turns an action block into a tool call and keeps the prose around it', () => {
    const answer = 'I will read the page first.\n\n```action\n{"tool": "read_page", "arguments": {"path": "posts/a.md"}}\n```\n'
    const { text, toolCalls } = parseTextActions(answer, NAMES)
    expect(text).toBe('I will read the page first.')
    expect(toolCalls).toHaveLength(1)
    expect(toolCalls[0]).toMatchObject({ name: 'read_page', arguments: { path: 'posts/a.md' }, rawArguments: '{"path":"posts/a.md"}' })
    expect(toolCalls[0]!.id).toMatch(/^action-/)
  })

  it('reads several blocks, trailing commas, string arguments and the spellings models drift to', () => {
    const answer = [
      '```action\n{"tool": "read_page", "arguments": {"path": "a.md",},}\n```',
      '```tool_call\n{"name": "edit_page", "arguments": "{\\"path\\": \\"b.md\\"}"}\n```',
      '~~~action\n{"tool": "read_page", "args": {"path": "c.md"}}\n~~~',
    ].join('\n\n')
    const { text, toolCalls } = parseTextActions(answer, NAMES)
    expect(text).toBe('')
    expect(toolCalls.map((call) => [call.name, call.arguments])).toEqual([
      ['read_page', { path: 'a.md' }],
      ['edit_page', { path: 'b.md' }],
      ['read_page', { path: 'c.md' }],
    ])
  })

  it('turns an unreadable action block into a call with an error, which the tool answers', () => {
    const { toolCalls } = parseTextActions('```action\n{"tool": "read_page", "arguments": {path: oops}\n```', NAMES)
    expect(toolCalls).toHaveLength(1)
    expect(toolCalls[0]).toMatchObject({ name: 'read_page', arguments: null })
    expect(toolCalls[0]!.error).toBeTruthy()
  })

  it('runs a json block or bare JSON only when it names a known tool', () => {
    expect(parseTextActions('Here is JSON:\n```json\n{"tool": "make_coffee", "arguments": {}}\n```', NAMES).toolCalls).toEqual([])
    expect(parseTextActions('The config is {"name": "x", "arguments": {}}.', NAMES).toolCalls).toEqual([])
    expect(parseTextActions('```json\n{"tool": "read_page", "arguments": {"path": "a.md"}}\n```', NAMES).toolCalls).toHaveLength(1)
    expect(parseTextActions('Sure: {"tool": "read_page", "arguments": {"path": "a.md"}}', NAMES).toolCalls[0]).toMatchObject({ name: 'read_page' })
  })

  it('leaves a plain answer as it is', () => {
    expect(parseTextActions('ETags name one version of a page.', NAMES)).toEqual({ text: 'ETags name one version of a page.', toolCalls: [] })
  })
})

describe('visibleText', () => {
  it('hides action blocks, an open one, and a line that may still open one', () => {
    expect(visibleText('Reading.\n```action\n{"tool": "read_page", "arguments": {}}\n```\nDone.')).toBe('Reading.\n\nDone.')
    expect(visibleText('Reading.\n```action\n{"tool": "read_')).toBe('Reading.\n')
    expect(visibleText('Reading.\n``')).toBe('Reading.\n')
    expect(visibleText('Reading.\n``', true)).toBe('Reading.\n``')
    expect(visibleText('Code:\n```ts\nconst a = 1\n```\nSee?')).toBe('Code:\n```ts\nconst a = 1\n```\nSee?')
    expect(visibleText('Code:\n```ts\nconst a = 1\n```', true)).toBe('Code:\n```ts\nconst a = 1\n```')
  })
})

describe('toTextProtocol', () => {
  it('puts the protocol in the system message, tool calls as action blocks and results as one user message', () => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You are the blog agent.' },
      { role: 'user', content: 'Fix the typo in a.md' },
      { role: 'assistant', content: 'Reading it.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_page', arguments: '{"path":"a.md"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"content":"teh"}' },
    ]
    const converted = toTextProtocol(messages, TOOLS)
    expect(converted.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user'])
    expect(converted[0]!.content).toContain('You are the blog agent.')
    expect(converted[0]!.content).toContain('```action')
    expect(converted[0]!.content).toContain('- edit_page: The edit_page tool.')
    expect(converted[2]!.content).toBe('Reading it.\n\n```action\n{"tool":"read_page","arguments":{"path":"a.md"}}\n```')
    expect(converted[3]!.content).toContain('Result of read_page:\n{"content":"teh"}')
    expect(JSON.stringify(converted)).not.toContain('tool_call')
  })
})
