// @vitest-environment happy-dom
import { mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it } from 'vitest'
import ResumeBanner from '../../../../client/components/ResumeBanner.vue'
import { checkpoint, flush, scriptedSkill, setUpAssistant, until } from './assistant-harness'

const button = (wrapper: ReturnType<typeof mount>, name: string) => wrapper.findAll('button').find((candidate) => candidate.text() === name)

function threeSteps() {
  const ran: string[] = []
  const skill = scriptedSkill({
    one: () => ran.push('one'),
    two: () => ran.push('two'),
    three: (context) => {
      ran.push('three')
      context.say('Finished the post.')
    },
  })
  return { ran, skill }
}

beforeEach(() => sessionStorage.clear())

describe('ResumeBanner', () => {
  it('says what the task was, how far it got and how risky a resume is', async () => {
    const { skill } = threeSteps()
    const { pinia } = await setUpAssistant({ blog: { checkpoints: [checkpoint()] }, skills: [skill] })
    const wrapper = mount(ResumeBanner, { global: { plugins: [pinia] } })
    await flush()
    const task = wrapper.get('[data-testid="metablog-resume-task"]')
    expect(task.text()).toContain('Write a post about ETags')
    expect(task.text()).toContain('1 of 3 steps done')
    expect(task.text()).toContain('5 min ago')
    expect(task.get('[data-testid="metablog-resume-risk"]').text()).toBe('Safe to resume')
    expect(task.text()).toContain('Next: Step two')
  })

  it('checks the risk again when a page the task depends on changes (file:written)', async () => {
    const { skill } = threeSteps()
    const blog = { checkpoints: [checkpoint({ expectedHashes: { 'posts/etags.md': 'hash-then' } })], hashes: { 'posts/etags.md': 'hash-then' } }
    const { pinia, runtime, api } = await setUpAssistant({ blog, skills: [skill] })
    const wrapper = mount(ResumeBanner, { global: { plugins: [pinia] } })
    await flush()
    expect(wrapper.get('[data-testid="metablog-resume-risk"]').text()).toBe('Safe to resume')

    const checks = api.readHash.mock.calls.length
    runtime.bus.emit('file:written', { path: 'posts/other.md', hash: 'x', kind: 'updated' })
    await flush()
    expect(api.readHash.mock.calls.length).toBe(checks)

    blog.hashes['posts/etags.md'] = 'hash-now'
    runtime.bus.emit('file:written', { path: 'posts/etags.md', hash: 'hash-now', kind: 'updated' })
    await flush()
    expect(wrapper.get('[data-testid="metablog-resume-risk"]').text()).toBe('Risky')
  })

  it('is not there when nothing was interrupted', async () => {
    const { pinia } = await setUpAssistant()
    const wrapper = mount(ResumeBanner, { global: { plugins: [pinia] } })
    expect(wrapper.find('[data-testid="metablog-resume"]').exists()).toBe(false)
  })

  it('resumes a safe task at its first unfinished step', async () => {
    const { ran, skill } = threeSteps()
    const { pinia, store } = await setUpAssistant({ blog: { checkpoints: [checkpoint()] }, skills: [skill] })
    const wrapper = mount(ResumeBanner, { global: { plugins: [pinia] } })
    await flush()
    await button(wrapper, 'Resume')!.trigger('click')
    await until(() => store.status === 'COMPLETED', 'the resumed task to finish')
    await flush()
    expect(ran).toEqual(['two', 'three'])
    expect(wrapper.emitted('started')).toHaveLength(1)
    expect(store.messages.map((message) => (message.kind === 'assistant' ? message.text : message.kind))).toEqual([
      'Resuming **Write a post about ETags** at “Step two”.',
      'Finished the post.',
    ])
    expect(wrapper.find('[data-testid="metablog-resume"]').exists()).toBe(false)
  })

  it('a risky resume shows why and waits for "Resume anyway"', async () => {
    const { ran, skill } = threeSteps()
    const risky = checkpoint({ expectedHashes: { 'posts/etags.md': 'hash-then' } })
    const { pinia, store } = await setUpAssistant({ blog: { checkpoints: [risky], hashes: { 'posts/etags.md': 'hash-now' } }, skills: [skill] })
    const wrapper = mount(ResumeBanner, { global: { plugins: [pinia] } })
    await flush()
    expect(wrapper.get('[data-testid="metablog-resume-risk"]').text()).toBe('Risky')

    await button(wrapper, 'Resume')!.trigger('click')
    await flush()
    expect(ran).toEqual([])
    expect(wrapper.text()).toContain('posts/etags.md changed since the task stopped')
    expect(button(wrapper, 'Resume')).toBeUndefined()

    await button(wrapper, 'Resume anyway')!.trigger('click')
    await until(() => store.status === 'COMPLETED', 'the resumed task to finish')
    expect(ran).toEqual(['two', 'three'])
  })

  it('Cancel keeps a risky task for later', async () => {
    const { skill } = threeSteps()
    const risky = checkpoint({ expectedHashes: { 'posts/etags.md': 'hash-then' } })
    const { pinia } = await setUpAssistant({ blog: { checkpoints: [risky], hashes: {} }, skills: [skill] })
    const wrapper = mount(ResumeBanner, { global: { plugins: [pinia] } })
    await flush()
    await button(wrapper, 'Resume')!.trigger('click')
    await flush()
    expect(wrapper.text()).toContain('posts/etags.md was deleted since the task stopped')
    await button(wrapper, 'Cancel')!.trigger('click')
    expect(button(wrapper, 'Resume')).toBeDefined()
    expect(button(wrapper, 'Resume anyway')).toBeUndefined()
  })

  it('discards a task', async () => {
    const { skill } = threeSteps()
    const { pinia, api } = await setUpAssistant({ blog: { checkpoints: [checkpoint(), checkpoint({ taskId: 'task-2', title: 'Summarize posts/etags.md' })] }, skills: [skill] })
    const wrapper = mount(ResumeBanner, { global: { plugins: [pinia] } })
    await flush()
    expect(wrapper.text()).toContain('2 tasks were interrupted')
    await wrapper.findAll('[data-testid="metablog-resume-task"]')[0]!.findAll('button').find((candidate) => candidate.text() === 'Discard')!.trigger('click')
    await flush()
    expect(api.deleteCheckpoint).toHaveBeenCalledWith('task-resume-1')
    expect(wrapper.findAll('[data-testid="metablog-resume-task"]').map((task) => task.attributes('data-task-id'))).toEqual(['task-2'])
  })

  it('cannot resume while another task runs', async () => {
    const { skill } = threeSteps()
    const { pinia, store } = await setUpAssistant({ blog: { checkpoints: [checkpoint()] }, skills: [skill] })
    const wrapper = mount(ResumeBanner, { global: { plugins: [pinia] } })
    await flush()
    store.status = 'EXECUTING'
    store.taskId = 'task-other'
    await flush()
    expect(button(wrapper, 'Resume')!.attributes('disabled')).toBeDefined()
  })
})
