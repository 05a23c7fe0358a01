// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import ChatPanel from '../../../../client/components/ChatPanel.vue'
import ModelIndicator from '../../../../client/components/ModelIndicator.vue'
import { observeChatRequests, type RequestOutcome } from '../../../../client/api/request-outcome'
import { CONFIGURED, flush, setUpAssistant } from './assistant-harness'

let wrapper: VueWrapper | undefined

afterEach(() => {
  wrapper?.unmount()
  wrapper = undefined
  document.body.innerHTML = ''
  sessionStorage.clear()
})

const picker = () => document.querySelector<HTMLSelectElement>('[data-testid="metablog-model-picker"]')
const dot = () => document.querySelector<HTMLElement>('[data-testid="metablog-model-health"]')!

describe('the model picker in the panel header', () => {
  it('offers the listed models in a labelled select and switches the conversation model', async () => {
    const setup = await setUpAssistant({ blog: { status: CONFIGURED, models: ['gpt-4o-mini', 'gpt-4o', 'o3-mini'] } })
    wrapper = mount(ChatPanel, { global: { plugins: [setup.pinia] }, attachTo: document.body })
    await flush()
    const select = picker()!
    expect(select).not.toBeNull()
    expect(select.closest('label')!.textContent).toContain('Model for this conversation')
    expect([...select.options].map((option) => option.value)).toEqual(['gpt-4o-mini', 'gpt-4o', 'o3-mini'])
    expect(select.value).toBe('gpt-4o-mini')

    select.value = 'o3-mini'
    select.dispatchEvent(new Event('change'))
    await flush()
    expect(setup.store.chosenModel).toBe('o3-mini')
    expect(setup.runtime.model).toBe('o3-mini')

    // A new conversation starts on the configured model again.
    setup.store.clearConversation()
    await flush()
    expect(setup.runtime.model).toBe('gpt-4o-mini')
    expect(picker()!.value).toBe('gpt-4o-mini')
  })

  it('refuses a model the provider did not list', async () => {
    const setup = await setUpAssistant({ blog: { status: CONFIGURED, models: ['gpt-4o-mini', 'gpt-4o'] } })
    expect(setup.store.chooseModel('made-up-model')).toBe(false)
    expect(setup.runtime.model).toBe('gpt-4o-mini')
  })

  it('names the model without a select when only the configured one is offered', async () => {
    const setup = await setUpAssistant({ blog: { status: CONFIGURED } })
    wrapper = mount(ChatPanel, { global: { plugins: [setup.pinia] }, attachTo: document.body })
    await flush()
    expect(picker()).toBeNull()
    expect(document.querySelector('[data-testid="metablog-model"]')!.textContent).toContain('gpt-4o-mini · api.openai.com')
  })
})

describe("the header's dot", () => {
  const mountIndicator = (lastRequest: RequestOutcome | null) =>
    (wrapper = mount(ModelIndicator, { props: { status: CONFIGURED, ready: true, lastRequest }, attachTo: document.body }))

  it('shows the start-up status before any request', () => {
    mountIndicator(null)
    expect(dot().dataset.health).toBe('startup')
    expect(dot().classList.contains('ok')).toBe(true)
  })

  it('turns red with the code in its tooltip after a refused key, amber after a rate limit, green after a success', async () => {
    const view = mountIndicator({ ok: false, code: 'ERR_LLM_AUTH', message: 'The key was refused.', at: Date.now() })
    expect(dot().dataset.health).toBe('failed')
    expect(dot().classList.contains('error')).toBe(true)
    expect(dot().title).toContain('ERR_LLM_AUTH')
    expect(dot().getAttribute('aria-label')).toContain('The key was refused.')
    await view.setProps({ lastRequest: { ok: false, code: 'ERR_LLM_RATE_LIMIT', message: 'Wait.', at: Date.now() } })
    expect(dot().classList.contains('warn')).toBe(true)
    await view.setProps({ lastRequest: { ok: true, at: Date.now() } })
    expect(dot().dataset.health).toBe('ok')
    expect(dot().classList.contains('ok')).toBe(true)
  })

  it('follows the last chat request the store hears of', async () => {
    const setup = await setUpAssistant({ blog: { status: CONFIGURED } })
    wrapper = mount(ChatPanel, { global: { plugins: [setup.pinia] }, attachTo: document.body })
    await flush()
    setup.runtime.bus.emit('llm:request', { ok: false, code: 'ERR_LLM_UNREACHABLE', message: 'No answer from 127.0.0.1.', at: Date.now() })
    await flush()
    expect(dot().dataset.code).toBe('ERR_LLM_UNREACHABLE')
    setup.runtime.bus.emit('llm:request', { ok: true, at: Date.now() })
    await flush()
    expect(dot().dataset.health).toBe('ok')
  })
})

describe('observeChatRequests', () => {
  const answer = (status: number, body: unknown): typeof fetch => async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  const CHAT = 'http://localhost:5173/__metablog/api/llm/v1/chat/completions'

  it('reports the gateway error code of a failed chat request and a success', async () => {
    const seen: RequestOutcome[] = []
    const failing = observeChatRequests(answer(401, { error: { code: 'ERR_LLM_AUTH', message: 'Key refused.' } }), (outcome) => seen.push(outcome))
    const response = await failing(CHAT, { method: 'POST' })
    expect(await response.json()).toEqual({ error: { code: 'ERR_LLM_AUTH', message: 'Key refused.' } })
    await observeChatRequests(answer(200, {}), (outcome) => seen.push(outcome))(CHAT, { method: 'POST' })
    expect(seen.map(({ ok, code, message }) => ({ ok, code, message }))).toEqual([
      { ok: false, code: 'ERR_LLM_AUTH', message: 'Key refused.' },
      { ok: true, code: undefined, message: undefined },
    ])
  })

  it('ignores other requests and a request the page aborted', async () => {
    const seen: RequestOutcome[] = []
    await observeChatRequests(answer(500, {}), (outcome) => seen.push(outcome))('http://localhost:5173/__metablog/api/llm/status')
    const aborted = observeChatRequests(async () => Promise.reject(new DOMException('Stopped', 'AbortError')), (outcome) => seen.push(outcome))
    await expect(aborted(CHAT)).rejects.toThrow('Stopped')
    const down = observeChatRequests(async () => Promise.reject(new TypeError('fetch failed')), (outcome) => seen.push(outcome))
    await expect(down(CHAT)).rejects.toThrow('fetch failed')
    expect(seen.map((outcome) => outcome.code)).toEqual(['ERR_LLM_UNREACHABLE'])
  })
})
