import { describe, expect, it } from 'vitest'
import { AgentRuntime } from '../../../../client/runtime/agent-runtime'
import { createPlainChatState } from '../../../../client/runtime/chat-state'
import { classifierInstructions } from '../../../../client/runtime/classify'
import { defineSkill } from '../../../../client/runtime/define-skill'
import { IntentRouter } from '../../../../client/runtime/intent-router'
import { createLogger } from '../../../../client/runtime/logger'
import { Vocabulary } from '../../../../client/runtime/vocabulary'
import { builtinSkills } from '../../../../client/skills'
import type { MetaBlogApi } from '../../../../client/api/metablog-api'
import { shoutSkill } from './fixtures/shout-skill'

describe('the vocabulary derived from skills', () => {
  it('builds the built-in help, slash menu and command list from the skills that own them', () => {
    const words = new Vocabulary(builtinSkills)
    expect(words.help).toBe(
      [
        'Try one of these:',
        '- **/write** a topic — draft a new post (or "write a post about …", "写一篇关于…的文章")',
        '- **/edit** an instruction — rewrite the text you selected on the page',
        '- **/summarize** — summarize this page (or a named one)',
        '- **/research** a question — answer from your own posts, with links',
        '- **/graph** — backlinks, unresolved links and link suggestions for this page',
        "- **/explain** — explain the selected code or this page's code blocks",
        '- **/ask** a question — answer it from your blog',
        '- **/delete** a page — delete a post (after you confirm)',
      ].join('\n'),
    )
    expect(words.menu.map((command) => command.name)).toEqual(['write', 'edit', 'summarize', 'research', 'graph', 'explain', 'ask', 'help'])
    expect(words.commandNames).toEqual(['write', 'draft', 'edit', 'summarize', 'summarise', 'research', 'search', 'graph', 'explain', 'ask', 'delete', 'help'])
    expect(words.intents).toEqual(['write_article', 'edit_content', 'summarize', 'research', 'answer_question', 'update_graph', 'explain_code', 'delete_article', 'help'])
  })

  it('a skill defined in one file adds its command, patterns, help line, menu entry and classifier intent', async () => {
    const skills = [...builtinSkills, shoutSkill]
    const words = new Vocabulary(skills)
    expect(words.help.split('\n').at(-1)).toBe('- **/shout** text — say it in capitals')
    expect(words.menu.at(-2)).toEqual({ name: 'shout', argument: 'text', description: 'Say it louder' })
    expect(words.matchingCommands('/sh')).toEqual([{ name: 'shout', argument: 'text', description: 'Say it louder' }])
    expect(words.closestCommand('shuot')).toBe('shout')
    expect(classifierInstructions(words)).toContain('"shout"')
    // The classifier may fill every param some registered skill takes.
    expect(classifierInstructions(words)).toContain('"params": {"topic"?, "style"?, "length"?: "short"|"medium"|"long", "path"?, "pageHint"?, "instruction"?, "query"?}')

    const router = new IntentRouter({ skills })
    expect(router.parseLocally('/shout hello')).toMatchObject({ intent: 'shout', params: { query: 'hello' }, source: 'command', confidence: 1 })
    expect(router.parseLocally('shout good morning')).toMatchObject({ intent: 'shout', params: { query: 'good morning' }, source: 'pattern' })
    expect(router.parseLocally('大声说 你好')).toMatchObject({ intent: 'shout', params: { query: '你好' }, source: 'pattern' })
    // The built-in rules still come first.
    expect(router.parseLocally('write a post about shouting')).toMatchObject({ intent: 'write_article' })
  })

  it('the runtime routes to a registered skill and lists it in /help and the menu', async () => {
    const api = { llmStatus: async () => ({ configured: false, prices: {} }), listCheckpoints: async () => ({ checkpoints: [] }), deleteCheckpoint: async () => ({}), saveCheckpoint: async () => ({}), releaseLocks: async () => ({}) }
    const state = createPlainChatState()
    const runtime = new AgentRuntime({ api: api as unknown as MetaBlogApi, skills: [shoutSkill], state, logger: createLogger({ sink: null }), tabId: 'tab' })
    expect(runtime.commands.map((command) => command.name)).toContain('shout')
    expect((await runtime.processInput('/shout hi there'))?.outcome).toBe('COMPLETED')
    expect(state.messages.at(-1)).toMatchObject({ kind: 'assistant', text: 'HI THERE' })
    await runtime.processInput('/help')
    expect(state.messages.at(-1)).toMatchObject({ text: expect.stringContaining('**/shout** text') })
  })

  it('refuses a skill whose vocabulary is broken where it is defined', () => {
    const base = { name: 'x', intents: ['x'], needsModel: false, title: () => 'x', steps: [] }
    expect(() => defineSkill({ ...base, commands: [{ name: 'Go!', description: '' }] })).toThrow(/lowercase letters/)
    expect(() => defineSkill({ ...base, commands: [{ name: 'go', description: '' }, { name: 'go', description: '' }] })).toThrow(/twice/)
    expect(() => defineSkill({ ...base, intents: [] })).toThrow(/at least one intent/)
  })
})
