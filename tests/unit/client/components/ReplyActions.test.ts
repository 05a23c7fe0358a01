// @vitest-environment happy-dom
import { mount } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import ReplyActions from '../../../../client/components/ReplyActions.vue'
import { isTaskReply } from '../../../../client/stores/card-writes'

const button = (wrapper: ReturnType<typeof mount>, name: string) => wrapper.findAll('button').find((candidate) => candidate.text() === name)

describe('ReplyActions', () => {
  it('copies the answer as Markdown and says so', async () => {
    const writeText = vi.fn(async () => undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const wrapper = mount(ReplyActions, { props: { text: '  **ETags** name a version.\n', canInsert: true } })
    await button(wrapper, 'Copy')!.trigger('click')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(writeText).toHaveBeenCalledWith('**ETags** name a version.')
    expect(button(wrapper, 'Copied')).toBeDefined()
  })

  it('says when the browser refuses the clipboard', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async () => Promise.reject(new Error('denied')) }, configurable: true })
    const wrapper = mount(ReplyActions, { props: { text: 'x', canInsert: true } })
    await button(wrapper, 'Copy')!.trigger('click')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(button(wrapper, 'Copy failed')!.attributes('title')).toContain('select the text and copy it')
  })

  it('asks for an insert, only when there is a page to insert into', async () => {
    const wrapper = mount(ReplyActions, { props: { text: 'x', canInsert: true } })
    await button(wrapper, 'Insert into page')!.trigger('click')
    expect(wrapper.emitted('insert')).toHaveLength(1)
    const disabled = mount(ReplyActions, { props: { text: 'x', canInsert: false } })
    expect(button(disabled, 'Insert into page')!.attributes('disabled')).toBeDefined()
  })

  it('is offered on a task\'s streamed answer, not on notes or while streaming', () => {
    const reply = { id: 'task-1-reply-abc-1', kind: 'assistant' as const, taskId: 'task-1', text: 'A summary.', streaming: false }
    expect(isTaskReply(reply)).toBe(true)
    expect(isTaskReply({ ...reply, streaming: true })).toBe(false)
    expect(isTaskReply({ ...reply, id: 'note-abc-2' })).toBe(false)
    expect(isTaskReply({ ...reply, taskId: undefined })).toBe(false)
  })
})
