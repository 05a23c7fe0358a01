// @vitest-environment happy-dom
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import AIChatOrb from '../../../../client/components/AIChatOrb.vue'
import type { TaskInputs } from '../../../../client/runtime/types'
import { CONFIGURED, flush, scriptedSkill, setUpAssistant, until } from './assistant-harness'

let wrapper: VueWrapper | undefined

async function mountOrb(options: Parameters<typeof setUpAssistant>[0] = {}, currentFile = 'posts/etags.md') {
  const setup = await setUpAssistant(options)
  wrapper = mount(AIChatOrb, { props: { currentFile }, global: { plugins: [setup.pinia] }, attachTo: document.body })
  await flushPromises()
  return { ...setup, wrapper }
}

const orb = () => document.querySelector<HTMLButtonElement>('[data-testid="metablog-orb"]')!
const dialog = () => document.querySelector<HTMLElement>('[role="dialog"][aria-label="MetaBlog assistant"]')
const messageBox = () => document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message MetaBlog"]')!
const buttonNamed = (name: string) =>
  [...document.querySelectorAll('button')].find((button) => (button.getAttribute('aria-label') ?? button.textContent?.trim()) === name)

async function press(target: EventTarget, key: string, init: KeyboardEventInit = {}) {
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }))
  await flush(2)
}

async function type(text: string) {
  const box = messageBox()
  box.value = text
  box.dispatchEvent(new Event('input', { bubbles: true }))
  await flush(2)
}

beforeEach(() => sessionStorage.clear())
afterEach(() => {
  wrapper?.unmount()
  wrapper = undefined
  document.body.innerHTML = ''
})

describe('AIChatOrb', () => {
  it('is a button named "Open MetaBlog assistant" that shows its shortcut', async () => {
    await mountOrb()
    expect(orb().tagName).toBe('BUTTON')
    expect(orb().getAttribute('aria-label')).toBe('Open MetaBlog assistant (Alt+K)')
    expect(orb().getAttribute('aria-keyshortcuts')).toBe('Alt+K')
    expect(orb().title).toMatch(/\((Alt\+K|⌥K)\)$/)
    expect(orb().getAttribute('aria-expanded')).toBe('false')
    expect(dialog()).toBeNull()
  })

  it('opens the panel, focuses the message box, and Escape closes it back to the orb', async () => {
    await mountOrb()
    orb().click()
    await flush()
    expect(dialog()).not.toBeNull()
    expect(orb().getAttribute('aria-expanded')).toBe('true')
    expect(document.activeElement).toBe(messageBox())

    await press(messageBox(), 'Escape')
    await flush()
    expect(dialog()).toBeNull()
    expect(document.activeElement).toBe(orb())
  })

  it('opens with Alt+K and closes with it from inside the panel', async () => {
    await mountOrb()
    await press(document.body, 'k', { code: 'KeyK', altKey: true })
    expect(dialog()).not.toBeNull()
    expect(document.activeElement).toBe(messageBox())
    // Ctrl/Cmd+K belongs to VitePress search.
    await press(messageBox(), 'k', { code: 'KeyK', ctrlKey: true })
    expect(dialog()).not.toBeNull()
    await press(messageBox(), '˚', { code: 'KeyK', altKey: true })
    await flush()
    expect(dialog()).toBeNull()
  })

  it('explains how to configure a model when there is none', async () => {
    await mountOrb()
    orb().click()
    await flush()
    expect(document.querySelector('[data-testid="metablog-model"]')!.textContent).toContain('No model configured')
    const setup = document.querySelector('[data-testid="metablog-setup"]')!
    expect(setup.textContent).toContain('OPENAI_API_KEY')
    expect(setup.querySelectorAll('li')).toHaveLength(2)
  })

  it('names the model when one is configured', async () => {
    await mountOrb({ blog: { status: CONFIGURED } })
    orb().click()
    await flush()
    expect(document.querySelector('[data-testid="metablog-model"]')!.textContent?.trim()).toBe('gpt-4o-mini · api.openai.com')
    expect(document.querySelector('[data-testid="metablog-setup"]')).toBeNull()
  })

  it('offers slash commands: arrows move, Tab completes, Escape closes only the menu', async () => {
    await mountOrb()
    orb().click()
    await flush()
    await type('/')
    const names = () => [...document.querySelectorAll('[role="listbox"] [role="option"]')].map((option) => `/${option.getAttribute('data-command')}`)
    expect(names()).toEqual(['/write', '/edit', '/summarize', '/research', '/graph', '/explain', '/ask', '/delete', '/help'])
    expect(document.querySelector('[role="option"][aria-selected="true"]')!.textContent).toContain('Draft a new post')

    await type('/s')
    expect(names()).toEqual(['/summarize'])
    await type('/')
    await press(messageBox(), 'ArrowDown')
    await press(messageBox(), 'ArrowDown')
    expect(messageBox().getAttribute('aria-activedescendant')).toMatch(/-summarize$/)
    await press(messageBox(), 'Tab')
    expect(messageBox().value).toBe('/summarize ')
    expect(document.querySelector('[role="listbox"]')).toBeNull()

    await type('/')
    await press(messageBox(), 'Escape')
    expect(document.querySelector('[role="listbox"]')).toBeNull()
    expect(dialog()).not.toBeNull()
  })

  it('Enter sends with the current page and the selection; Shift+Enter does not', async () => {
    const asked: TaskInputs[] = []
    const skill = scriptedSkill({ answer: (context) => asked.push(context.inputs) })
    const { store } = await mountOrb({ skills: [skill] })
    store.selection = 'ETags are fingerprints.'
    orb().click()
    await flush()
    expect(document.querySelector('[data-testid="metablog-selection"]')!.textContent).toContain('ETags are fingerprints.')

    await type('/ask what is this?')
    await press(messageBox(), 'Enter', { shiftKey: true })
    expect(asked).toHaveLength(0)
    await press(messageBox(), 'Enter')
    await until(() => asked.length === 1, 'the request to reach the skill')
    expect(asked[0]).toMatchObject({ text: '/ask what is this?', currentFile: 'posts/etags.md', selectedText: 'ETags are fingerprints.' })
    expect(messageBox().value).toBe('')
    expect(document.querySelector('[data-testid="metablog-selection"]')).toBeNull()
    const user = document.querySelector('[data-kind="user"]')!
    expect(user.textContent).toContain('what is this?')
    expect(user.querySelector('blockquote')!.textContent).toBe('ETags are fingerprints.')
  })

  it('the selection chip can be removed', async () => {
    const { store } = await mountOrb()
    store.selection = 'Some text'
    orb().click()
    await flush()
    buttonNamed('Remove selection')!.click()
    await flush()
    expect(store.selection).toBeNull()
    expect(document.querySelector('[data-testid="metablog-selection"]')).toBeNull()
  })

  it('shows "Ask MetaBlog" next to a page selection and opens with it as context', async () => {
    const { store } = await mountOrb()
    const paragraph = document.createElement('p')
    paragraph.textContent = 'Conditional requests save bandwidth.'
    document.body.prepend(paragraph)
    const range = document.createRange()
    range.selectNodeContents(paragraph)
    document.getSelection()!.removeAllRanges()
    document.getSelection()!.addRange(range)
    document.dispatchEvent(new Event('selectionchange'))
    await until(() => buttonNamed('Ask MetaBlog'), 'the Ask MetaBlog button')
    expect(store.selection).toBe('Conditional requests save bandwidth.')

    buttonNamed('Ask MetaBlog')!.click()
    await flush()
    expect(dialog()).not.toBeNull()
    expect(document.querySelector('[data-testid="metablog-selection"]')!.textContent).toContain('Conditional requests save bandwidth.')
    expect(buttonNamed('Ask MetaBlog')).toBeUndefined()
  })

  it('ignores selections inside the panel', async () => {
    const { store } = await mountOrb()
    orb().click()
    await flush()
    const range = document.createRange()
    range.selectNodeContents(document.querySelector('.greeting')!)
    document.getSelection()!.removeAllRanges()
    document.getSelection()!.addRange(range)
    document.dispatchEvent(new Event('selectionchange'))
    await flush(10)
    expect(store.selection).toBeNull()
    expect(buttonNamed('Ask MetaBlog')).toBeUndefined()
  })

  it('shows a badge when something waits for the author and the panel is closed', async () => {
    const { store } = await mountOrb()
    store.resumable = [{ taskId: 't', skill: 'write', title: 'Write', finishedSteps: 1, totalSteps: 3, updatedAt: Date.now() }]
    await flush()
    expect(document.querySelector('[data-testid="metablog-orb-badge"]')!.textContent).toBe('1')
    // The badge is decoration: the orb's name does not change.
    expect(orb().getAttribute('aria-label')).toBe('Open MetaBlog assistant (Alt+K)')
  })

  it('Enter sends a slash command that is complete or takes nothing after it, and completes one that needs more', async () => {
    const { store } = await mountOrb()
    orb().click()
    await flush()
    await type('/wr')
    await press(messageBox(), 'Enter')
    expect(messageBox().value).toBe('/write ')
    expect(store.messages).toHaveLength(0)

    await type('/gra')
    await press(messageBox(), 'Enter')
    expect(store.messages.at(0)).toMatchObject({ kind: 'user', text: '/graph' })
    expect(messageBox().value).toBe('')
  })

  it('Escape closes the panel with the focus anywhere on the page, but not while a page field has text to cancel', async () => {
    await mountOrb()
    const field = document.createElement('input')
    document.body.append(field)
    orb().click()
    await flush()
    field.value = 'half-typed search'
    field.focus()
    await press(field, 'Escape')
    expect(dialog()).not.toBeNull()

    field.value = ''
    await press(field, 'Escape')
    expect(dialog()).toBeNull()

    orb().click()
    await flush()
    ;(document.activeElement as HTMLElement).blur()
    await press(document.body, 'Escape')
    expect(dialog()).toBeNull()

    // VitePress's search box closes on Escape itself: the panel stays.
    orb().click()
    await flush()
    const search = document.createElement('div')
    search.className = 'VPLocalSearchBox'
    search.append(document.createElement('input'))
    document.body.append(search)
    search.querySelector('input')!.focus()
    await press(search.querySelector('input')!, 'Escape')
    expect(dialog()).not.toBeNull()
  })

  it('a skip link near the top of the page opens the panel', async () => {
    await mountOrb()
    const skip = document.querySelector<HTMLButtonElement>('[data-testid="metablog-skip-link"]')!
    expect(document.body.firstElementChild!.contains(skip)).toBe(true)
    expect(skip.textContent).toMatch(/^Skip to the MetaBlog assistant \((Alt\+K|⌥K)\)$/)
    skip.click()
    await flush()
    expect(dialog()).not.toBeNull()
    expect(document.activeElement).toBe(messageBox())
  })
})
