// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { SkillError } from '../../../../client/api/errors'
import type { Proposal } from '../../../../client/runtime/types'
import { deferred, flush, scriptedSkill, setUpAssistant, until } from '../components/assistant-harness'
import { loadConversation, saveConversation, SAVED_RESULT_CHARS, emptyConversation } from '../../../../client/stores/conversation-storage'

const proposal: Proposal = { kind: 'edit', path: 'posts/etags.md', summary: 'Shorter', before: 'a b c', after: 'a c' }

beforeEach(() => sessionStorage.clear())

describe('useAssistantStore', () => {
  it('keeps the conversation across a reload; cards and streams of the old page load are interrupted', async () => {
    const gates = { wait: deferred() }
    const skill = scriptedSkill({
      approve: (context) => {
        void context.approve(proposal)
      },
      stream: (context) => context.replyStream().append('Half a repl'),
      tool: (context) => void context.showToolCall({ name: 'read_page', summary: 'read_page posts/a.md…', arguments: {} }),
      wait: () => undefined,
    }, gates)
    const first = await setUpAssistant({ skills: [skill] })
    first.store.draft = 'unsent words'
    first.store.open = true
    first.store.send('/ask something')
    await until(() => first.store.messages.some((message) => message.kind === 'tool'), 'the tool call to start')
    first.runtime.costs.record(first.store.taskId!, 'gpt-4o-mini', { promptTokens: 100, completionTokens: 20, cost: 0.001 })
    first.store.persist()

    // A reload: a new app, a new store, a new runtime.
    const second = await setUpAssistant({ skills: [skill] })
    const kinds = second.store.messages.map((message) => message.kind)
    expect(kinds).toEqual(['user', 'approval', 'assistant', 'tool'])
    const [, card, reply, tool] = second.store.messages
    expect(tool).toMatchObject({ kind: 'tool', status: 'running', interrupted: true })
    expect(card).toMatchObject({ kind: 'approval', status: 'pending', interrupted: true })
    expect(reply).toMatchObject({ kind: 'assistant', text: 'Half a repl', streaming: false, interrupted: true })
    expect(second.store.draft).toBe('unsent words')
    expect(second.store.open).toBe(true)
    expect(second.store.sessionCost).toMatchObject({ totalTokens: 120, cost: 0.001 })

    second.runtime.costs.record('another-task', 'gpt-4o-mini', { promptTokens: 10, completionTokens: 5, cost: 0.0005 })
    // The runtime's changes reach the panel with the next frame.
    await until(() => second.store.sessionCost.totalTokens !== 120, 'the new cost in the panel')
    expect(second.store.sessionCost).toMatchObject({ totalTokens: 135, cost: 0.0015 })
    gates.wait.resolve()
  })

  it('saves on its own shortly after a change', async () => {
    const skill = scriptedSkill({ reply: (context) => context.say('Saved reply.') })
    const first = await setUpAssistant({ skills: [skill] })
    first.store.send('/ask hi')
    await until(() => first.store.status === 'COMPLETED', 'the task')
    await new Promise((resolve) => setTimeout(resolve, 400))
    const second = await setUpAssistant()
    expect(second.store.messages.map((message) => message.kind)).toEqual(['user', 'assistant'])
  })

  it('sends the current page and the selection, then forgets the selection', async () => {
    const seen: unknown[] = []
    const skill = scriptedSkill({ reply: (context) => seen.push([context.inputs.currentFile, context.inputs.selectedText]) })
    const { store } = await setUpAssistant({ skills: [skill] })
    store.currentFile = 'posts/etags.md'
    await flush()
    store.selection = 'the selected words'
    expect(store.send('/ask what?')).toBe(true)
    expect(store.selection).toBeNull()
    await until(() => seen.length === 1, 'the skill')
    expect(seen[0]).toEqual(['posts/etags.md', 'the selected words'])
  })

  it('refuses to send while a task runs, or nothing at all', async () => {
    const gates = { wait: deferred() }
    const skill = scriptedSkill({ wait: () => undefined }, gates)
    const { store } = await setUpAssistant({ skills: [skill] })
    expect(store.send('   ')).toBe(false)
    expect(store.send('/ask one')).toBe(true)
    expect(store.isWorking).toBe(true)
    expect(store.send('/ask two')).toBe(false)
    gates.wait.resolve()
    await until(() => !store.isWorking, 'the task')
  })

  it('a selection belongs to its page: navigating drops it', async () => {
    const { store } = await setUpAssistant()
    store.currentFile = 'posts/a.md'
    await flush()
    store.selection = 'text on a'
    store.currentFile = 'posts/b.md'
    await flush()
    expect(store.selection).toBeNull()
  })

  it('deciding on a card no task waits for marks it interrupted instead of doing nothing', async () => {
    const { store } = await setUpAssistant()
    store.messages = [{ id: 'orphan', kind: 'approval', taskId: 'gone', proposal, status: 'pending' }]
    store.decide('orphan', { action: 'accept' })
    expect(store.messages[0]).toMatchObject({ status: 'pending', interrupted: true })
  })

  it('reports a failure to start as an error card with a retry', async () => {
    const { store, runtime } = await setUpAssistant()
    runtime.processInput = async () => {
      throw Object.assign(new Error('The dev server did not answer.'), { code: 'ERR_NETWORK' })
    }
    store.send('/ask hi')
    await until(() => store.messages.some((message) => message.kind === 'error'), 'the error card')
    expect(store.messages.at(-1)).toMatchObject({ kind: 'error', code: 'ERR_NETWORK', retryText: '/ask hi' })
    expect(store.isWorking).toBe(false)
  })

  it('Retry sends the request again when the failed task was not saved', async () => {
    const ran: string[] = []
    const skill = scriptedSkill({
      one: (context) => {
        ran.push(context.inputs.text)
        throw new SkillError('ERR_NO_SELECTION', 'Select the text you want to change on the page, then ask again.')
      },
    })
    const { store } = await setUpAssistant({ skills: [skill] })
    store.send('/ask once')
    await until(() => store.messages.some((message) => message.kind === 'error') && !store.isWorking, 'the error card')
    expect(store.resumable).toEqual([])
    const card = store.messages.find((message) => message.kind === 'error')!
    expect(store.retry(card.id)).toBe(true)
    await until(() => ran.length === 2 && !store.isWorking, 'the second run')
    expect(ran).toEqual(['/ask once', '/ask once'])
  })

  it('keeps the start of a long tool result across a reload, not the whole page it read', () => {
    const page = JSON.stringify({ path: 'posts/a.md', content: 'word '.repeat(2_000) })
    const row = { id: 't1', kind: 'tool', taskId: 't', name: 'read_page', summary: 'Read posts/a.md', arguments: '{}', status: 'done', result: page } as const
    const short = { ...row, id: 't2', result: '{"totalLines":3}' }
    saveConversation({ ...emptyConversation(), messages: [row, short] })
    const [saved, kept] = loadConversation().messages
    expect(saved).toMatchObject({ kind: 'tool', result: `${page.slice(0, SAVED_RESULT_CHARS)}… (${(page.length - SAVED_RESULT_CHARS).toLocaleString('en-US')} more characters)` })
    expect(kept).toEqual(short)
  })

  it('gives each message of a conversation saved by an older version its own id', () => {
    const reply = { kind: 'assistant', taskId: 't', streaming: false }
    sessionStorage.setItem('metablog:conversation:v1', JSON.stringify({ messages: [{ ...reply, id: 't-say', text: 'Drafting…' }, { ...reply, id: 't-say', text: 'Saved.' }] }))
    const { messages } = loadConversation()
    expect(messages.map((message) => message.kind === 'assistant' && message.text)).toEqual(['Drafting…', 'Saved.'])
    expect(new Set(messages.map((message) => message.id)).size).toBe(2)
  })
})
