// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import type { MetaBlogApi } from '../../../../client/api/metablog-api'
import type { PromptsResponse } from '../../../../client/api/prompts'
import { AgentRuntime } from '../../../../client/runtime/agent-runtime'
import { createLogger } from '../../../../client/runtime/logger'
import { useAssistantStore } from '../../../../client/stores/assistant'
import { builtinTools } from '../../../../client/tools'
import { createFakeApi, flush, scriptedSkill, until } from '../components/assistant-harness'

beforeEach(() => sessionStorage.clear())

function connect(prompts: () => PromptsResponse, skills = [scriptedSkill({ reply: (context) => context.say('Done.') })]) {
  setActivePinia(createPinia())
  const { api } = createFakeApi()
  const store = useAssistantStore()
  let runtime!: AgentRuntime
  store.connect((state) => {
    runtime = new AgentRuntime({ api: api as unknown as MetaBlogApi, skills, state, logger: createLogger({ sink: null }), loadPrompts: async () => prompts(), tools: builtinTools })
    return runtime
  })
  return { store, runtime: () => runtime }
}

describe('the store and the conversation features', () => {
  it('warns once about prompt files that could not be used, and again only when the problems change', async () => {
    let response: PromptsResponse = { prompts: [], problems: [{ file: 'prompts/bad.md', message: 'no "command" in the front matter' }] }
    const { store } = connect(() => response)
    await flush()
    const warnings = () => store.messages.filter((message) => message.kind === 'assistant' && message.text.startsWith('Some of your prompt files'))
    expect(warnings()).toHaveLength(1)
    expect(warnings()[0]).toMatchObject({ text: expect.stringContaining('- prompts/bad.md: no "command" in the front matter') })
    await store.refreshPrompts()
    expect(warnings()).toHaveLength(1)
    response = { prompts: [{ command: 'tldr', description: 'Short', template: '{{input}}', file: 'prompts/tldr.md' }], problems: [{ file: 'prompts/other.md', message: 'bad YAML' }] }
    await store.refreshPrompts()
    expect(warnings()).toHaveLength(2)
    // Prompts run the agent, so they join the menu of a runtime that has its tools.
    expect(store.commands.map((command) => command.name)).toContain('tldr')
  })

  it('sends the mentioned pages with the request and clears the chips', async () => {
    const seen: unknown[] = []
    const { store } = connect(() => ({ prompts: [], problems: [] }), [scriptedSkill({ reply: (context) => seen.push(context.inputs.text) })])
    await flush()
    store.mention({ path: 'posts/a.md', title: 'A' })
    store.mention({ path: 'posts/a.md', title: 'A' })
    expect(store.mentions).toEqual([{ path: 'posts/a.md', title: 'A' }])
    store.send('/ask compare')
    expect(store.mentions).toEqual([])
    await until(() => seen.length === 1, 'the task')
  })
})
