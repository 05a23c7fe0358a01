// @vitest-environment happy-dom
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import TaskProgress from '../../../../client/components/TaskProgress.vue'

const writing = { taskId: 't1', title: 'Write a post about ETags', step: 'Writing the content', index: 2, total: 7, message: 'Writing the content… 1,234 characters' }

describe('TaskProgress', () => {
  it('says which step of how many is running and what is happening', () => {
    const wrapper = mount(TaskProgress, { props: { progress: writing, status: 'EXECUTING' } })
    expect(wrapper.get('[data-testid="metablog-progress-text"]').text()).toBe('Step 3/7 · Writing the content… 1,234 characters')
    expect(wrapper.text()).toContain('Write a post about ETags')
  })

  it('exposes the progress to assistive technology', () => {
    const wrapper = mount(TaskProgress, { props: { progress: writing, status: 'EXECUTING' } })
    const bar = wrapper.get('[role="progressbar"]')
    expect(bar.attributes('aria-valuenow')).toBe('2')
    expect(bar.attributes('aria-valuemax')).toBe('7')
    expect(bar.attributes('aria-valuetext')).toBe('Step 3/7 · Writing the content… 1,234 characters')
    // Two of seven steps are done: the solid part of the bar covers 2/7.
    expect(wrapper.get('.done').attributes('style')).toContain(`width: ${(2 / 7) * 100}%`)
  })

  it('falls back to the step title, then to the state, when there is no message', () => {
    const fromStep = mount(TaskProgress, { props: { progress: { ...writing, message: '' }, status: 'EXECUTING' } })
    expect(fromStep.get('[data-testid="metablog-progress-text"]').text()).toBe('Step 3/7 · Writing the content')
    const understanding = mount(TaskProgress, { props: { progress: null, status: 'UNDERSTANDING' } })
    expect(understanding.get('[data-testid="metablog-progress-text"]').text()).toBe('Understanding your request…')
    expect(understanding.find('.indeterminate').exists()).toBe(true)
  })

  it('says it waits for the author while an approval is pending', () => {
    const wrapper = mount(TaskProgress, { props: { progress: writing, status: 'WAITING_INPUT' } })
    expect(wrapper.get('[data-testid="metablog-progress-text"]').text()).toBe('Step 3/7 · Waiting for your decision')
  })

  it('has a Stop button that asks to stop the task', async () => {
    const wrapper = mount(TaskProgress, { props: { progress: writing, status: 'EXECUTING' } })
    const stop = wrapper.findAll('button').find((button) => button.text() === 'Stop')
    expect(stop).toBeDefined()
    await stop!.trigger('click')
    expect(wrapper.emitted('stop')).toHaveLength(1)
  })
})
