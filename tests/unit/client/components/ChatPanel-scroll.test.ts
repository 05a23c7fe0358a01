// @vitest-environment happy-dom
// ChatPanel's scrolling: it follows the conversation at its end, and the author's own requests, and
// leaves an author who scrolled up to re-read where they are.
import { mount } from '@vue/test-utils'
import { afterEach, beforeEach, expect, it } from 'vitest'
import ChatPanel from '../../../../client/components/ChatPanel.vue'
import { flush, setUpAssistant } from './assistant-harness'

const tops = new WeakMap<object, number>()
const STUBBED = ['scrollHeight', 'clientHeight', 'scrollTop']
// A scroller 1,000 px tall showing 200.
beforeEach(() => {
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', { configurable: true, get: () => 1000 })
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 200 })
  Object.defineProperty(HTMLElement.prototype, 'scrollTop', { configurable: true, get() { return tops.get(this) ?? 0 }, set(value: number) { tops.set(this, value) } })
})
afterEach(() => {
  for (const name of STUBBED) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name]
})
const frame = () => new Promise((resolve) => requestAnimationFrame(resolve))
const note = (id: string) => ({ id, kind: 'assistant' as const, text: id, streaming: false })

/** The panel opened on a two-message conversation, settled; and how the author scrolls its conversation up. */
async function openPanel() {
  sessionStorage.clear()
  const setup = await setUpAssistant()
  setup.store.messages = [note('one'), note('two')]
  const wrapper = mount(ChatPanel, { global: { plugins: [setup.pinia] }, attachTo: document.body })
  await frame()
  await flush()
  const scroller = document.querySelector<HTMLElement>('.scroller')!
  const scrollUp = () => {
    scroller.scrollTop = 0
    scroller.dispatchEvent(new Event('scroll'))
  }
  const add = (id: string) => (setup.store.messages = [...setup.store.messages, note(id)])
  return { wrapper, scroller, scrollUp, add }
}

it('leaves an author who scrolled up after opening the panel where they are', async () => {
  const { wrapper, scroller, scrollUp, add } = await openPanel()
  expect(scroller.scrollTop).toBe(1000)
  // The author scrolls up to re-read, a while after opening the panel.
  scrollUp()
  await frame()
  add('three')
  await frame()
  await flush()
  expect(scroller.scrollTop).toBe(0)
  wrapper.unmount()
})

it('takes an author who scrolled up to the end of what they just asked, for that request only', async () => {
  const { wrapper, scroller, scrollUp, add } = await openPanel()
  scrollUp()
  // The composer says a request left; its first message arrives with the next frame.
  wrapper.findComponent({ name: 'ChatComposer' }).vm.$emit('sent')
  add('asked')
  await flush()
  expect(scroller.scrollTop).toBe(1000)
  // Scrolled up again later: the next message leaves them there.
  await frame()
  await flush()
  scrollUp()
  add('answer')
  await flush()
  expect(scroller.scrollTop).toBe(0)
  wrapper.unmount()
})
