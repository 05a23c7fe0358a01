// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import ChatPanel from '../../../../client/components/ChatPanel.vue'
import { deferred, flush, scriptedSkill, setUpAssistant, until } from './assistant-harness'

let wrapper: VueWrapper | undefined

async function mountPanel(options: Parameters<typeof setUpAssistant>[0] = {}) {
  const setup = await setUpAssistant(options)
  wrapper = mount(ChatPanel, { global: { plugins: [setup.pinia] }, attachTo: document.body })
  await flush()
  return setup
}

const cost = { promptTokens: 900, completionTokens: 40, totalTokens: 940, cost: 0.0002, calls: 3, unknownCost: false, unknownTokens: false }

beforeEach(() => sessionStorage.clear())
afterEach(() => {
  wrapper?.unmount()
  wrapper = undefined
  document.body.innerHTML = ''
})

describe('the agent in the panel', () => {
  it('shows each tool call as one compact row that expands to its arguments and result', async () => {
    const { store } = await mountPanel()
    store.messages = [
      { id: 't1', kind: 'tool', taskId: 'a', name: 'read_page', summary: 'Read posts/a.md', arguments: '{"path":"posts/a.md"}', status: 'done', result: '{"totalLines":3}' },
      { id: 't2', kind: 'tool', taskId: 'a', name: 'summon', summary: 'Unknown tool summon', arguments: '{}', status: 'error', result: '{"error":{"code":"ERR_UNKNOWN_TOOL"}}' },
    ]
    await flush()
    const rows = [...document.querySelectorAll<HTMLDetailsElement>('[data-testid="metablog-tool-call"]')]
    expect(rows.map((row) => [row.querySelector('.summary')!.textContent, row.dataset.status])).toEqual([
      ['Read posts/a.md', 'done'],
      ['Unknown tool summon', 'error'],
    ])
    expect(rows[0]!.open).toBe(false)
    // A closed row keeps its arguments and result (a whole page, for a read) out of the DOM.
    expect(rows[0]!.querySelector('pre')).toBeNull()
    for (const row of rows) {
      row.open = true
      row.dispatchEvent(new Event('toggle'))
    }
    await flush()
    expect(rows[0]!.querySelector('pre')!.textContent).toBe('{\n  "path": "posts/a.md"\n}')
    expect(rows[0]!.querySelectorAll('pre')[1]!.textContent).toBe('{\n  "totalLines": 3\n}')
    expect(rows[1]!.textContent).toContain('Error')
  })

  it('shows the mode and the cost under an answer, and runs a plan as an ask-mode request', async () => {
    const { store, runtime } = await mountPanel()
    store.messages = [{ id: 'p1', kind: 'assistant', taskId: 'a', text: '1. Add a sentence.', streaming: false, mode: 'plan', plan: '1. Add a sentence.', cost }]
    await flush()
    expect(document.querySelector('[data-testid="metablog-reply-mode"]')!.textContent).toBe('Plan')
    expect(document.querySelector('[data-testid="metablog-reply-cost"]')!.textContent).toBe('940 tokens · $0.0002')
    const run = document.querySelector<HTMLButtonElement>('[data-testid="metablog-run-plan"]')!
    expect(run.textContent!.trim()).toBe('Run this plan')
    run.click()
    await until(() => store.messages.some((message) => message.kind === 'user'), 'the plan request')
    expect(store.messages.find((message) => message.kind === 'user')).toMatchObject({ text: 'Carry out this plan, step by step:\n\n1. Add a sentence.' })
    await until(() => !store.isWorking, 'the request to end')
    expect(runtime.approvalMode).toBe('ask')
  })

  it('switches the mode for the next request', async () => {
    const { store, runtime } = await mountPanel()
    const radios = [...document.querySelectorAll<HTMLButtonElement>('[data-testid="metablog-mode"] [role="radio"]')]
    expect(radios.map((radio) => [radio.textContent!.trim(), radio.getAttribute('aria-checked')])).toEqual([
      ['Ask', 'true'],
      ['Auto-edit', 'false'],
      ['Plan', 'false'],
    ])
    radios[2]!.click()
    await flush()
    expect(store.approvalMode).toBe('plan')
    expect(runtime.approvalMode).toBe('plan')
    expect(radios[2]!.getAttribute('aria-checked')).toBe('true')
    radios[2]!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }))
    await flush()
    expect(store.approvalMode).toBe('ask')
    expect(radios.map((radio) => radio.tabIndex)).toEqual([0, -1, -1])
  })

  it('a tool call still running when its task stops shows as stopped', async () => {
    const gate = deferred()
    const skill = scriptedSkill({ one: (context) => void context.showToolCall({ name: 'read_page', summary: 'read_page posts/a.md…', arguments: {} }), two: () => undefined }, { two: gate })
    const { store } = await mountPanel({ skills: [skill] })
    store.send('/ask x')
    const row = () => document.querySelector<HTMLElement>('[data-testid="metablog-tool-call"]')
    await until(() => row()?.dataset.status === 'running', 'the running row')
    store.stop()
    await until(() => row()?.dataset.status === 'stopped', 'the row to show it stopped')
  })
})
