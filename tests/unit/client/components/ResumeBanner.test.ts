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

describe('ResumeBanner with many interrupted runs', () => {
  const onPage = (taskId: string, minutesAgo: number, path = 'posts/etags.md') =>
    checkpoint({ taskId, title: `Edit ${path}`, inputs: { text: 'make it shorter', intent: 'answer_question', params: {}, currentFile: path }, updatedAt: Date.now() - minutesAgo * 60_000 })

  it('shows one entry per page and skill (the newest), with the page path', async () => {
    const { skill } = threeSteps()
    const blog = { checkpoints: [onPage('old', 30), onPage('newest', 2), onPage('older', 20), onPage('other-page', 10, 'notes/cache.md')] }
    const { pinia } = await setUpAssistant({ blog, skills: [skill] })
    const wrapper = mount(ResumeBanner, { global: { plugins: [pinia] } })
    await flush()
    const tasks = wrapper.findAll('[data-testid="metablog-resume-task"]')
    expect(tasks.map((task) => task.attributes('data-task-id'))).toEqual(['newest', 'other-page'])
    expect(tasks.map((task) => task.get('[data-testid="metablog-resume-path"]').text())).toEqual(['posts/etags.md', 'notes/cache.md'])
    expect(tasks[0]!.get('[data-testid="metablog-resume-superseded"]').text()).toContain('2 older interrupted runs')
    expect(wrapper.text()).toContain('2 tasks were interrupted')
  })

  it('discarding the entry drops the older runs it stands for', async () => {
    const { skill } = threeSteps()
    const { pinia, api } = await setUpAssistant({ blog: { checkpoints: [onPage('old', 30), onPage('newest', 2)] }, skills: [skill] })
    const wrapper = mount(ResumeBanner, { global: { plugins: [pinia] } })
    await flush()
    await button(wrapper, 'Discard')!.trigger('click')
    await flush()
    expect(api.deleteCheckpoint.mock.calls.map(([taskId]) => taskId).sort()).toEqual(['newest', 'old'])
    expect(wrapper.find('[data-testid="metablog-resume"]').exists()).toBe(false)
  })

  it('"Discard all" empties the banner and the server', async () => {
    const { skill } = threeSteps()
    const blog = { checkpoints: [onPage('a', 3), onPage('b', 2, 'notes/cache.md'), checkpoint({ taskId: 'c' })] }
    const { pinia, checkpoints } = await setUpAssistant({ blog, skills: [skill] })
    const wrapper = mount(ResumeBanner, { global: { plugins: [pinia] } })
    await flush()
    expect(wrapper.findAll('[data-testid="metablog-resume-task"]')).toHaveLength(3)
    await wrapper.get('[data-testid="metablog-resume-discard-all"]').trigger('click')
    await until(() => checkpoints.length === 0, 'every checkpoint to go')
    await flush()
    expect(wrapper.find('[data-testid="metablog-resume"]').exists()).toBe(false)
  })

  it('explains "Risky" inline and in its tooltip before Resume is clicked', async () => {
    const { skill } = threeSteps()
    const risky = checkpoint({ expectedHashes: { 'posts/etags.md': 'hash-then' } })
    const { pinia } = await setUpAssistant({ blog: { checkpoints: [risky], hashes: { 'posts/etags.md': 'hash-now' } }, skills: [skill] })
    const wrapper = mount(ResumeBanner, { global: { plugins: [pinia] } })
    await flush()
    const risk = wrapper.get('[data-testid="metablog-resume-risk"]')
    expect(risk.text()).toBe('Risky')
    expect(risk.attributes('title')).toContain('Resuming may redo work: posts/etags.md changed since the task stopped')
    expect(wrapper.get('[data-testid="metablog-resume-why"]').text()).toContain('posts/etags.md changed since the task stopped')
  })

  it('leaves out a task whose error card already offers Retry (one place per failure)', async () => {
    const { skill } = threeSteps()
    const { pinia, store } = await setUpAssistant({ blog: { checkpoints: [checkpoint()] }, skills: [skill] })
    const wrapper = mount(ResumeBanner, { global: { plugins: [pinia] } })
    await flush()
    expect(wrapper.find('[data-testid="metablog-resume-task"]').exists()).toBe(true)
    store.messages = [{ id: 'e1', kind: 'error', taskId: 'task-resume-1', code: 'ERR_LLM_UNREACHABLE', message: 'The model did not answer.', retryText: 'write about etags' }]
    await flush()
    expect(wrapper.find('[data-testid="metablog-resume-task"]').exists()).toBe(false)
  })

  it('a risky Retry from the error card hands the task to the banner, which asks before resuming', async () => {
    const { skill } = threeSteps()
    const risky = checkpoint({ expectedHashes: { 'posts/etags.md': 'hash-then' } })
    const { pinia, store } = await setUpAssistant({ blog: { checkpoints: [risky], hashes: { 'posts/etags.md': 'hash-now' } }, skills: [skill] })
    store.messages = [{ id: 'e1', kind: 'error', taskId: 'task-resume-1', code: 'ERR_NETWORK', message: 'The dev server did not answer.', retryText: 'write about etags' }]
    const wrapper = mount(ResumeBanner, { global: { plugins: [pinia] } })
    await flush()
    expect(wrapper.find('[data-testid="metablog-resume-task"]').exists()).toBe(false)

    expect(store.retry('e1')).toBe(true)
    await until(() => wrapper.find('[data-testid="metablog-resume-task"]').exists(), 'the banner to take the task')
    expect(store.messages.find((message) => message.id === 'e1')).toMatchObject({ retryText: undefined })
    expect(wrapper.get('[data-testid="metablog-resume-risk"]').text()).toBe('Risky')
  })
})
