// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import ApprovalCard from '../../../../client/components/ApprovalCard.vue'
import ConflictCard from '../../../../client/components/ConflictCard.vue'
import ErrorCard from '../../../../client/components/ErrorCard.vue'
import type { Proposal } from '../../../../client/runtime/types'

function approval(proposal: Partial<Proposal> = {}, status: 'pending' | 'accepted' | 'rejected' = 'pending') {
  return {
    id: 'approval-1',
    kind: 'approval' as const,
    taskId: 'task-1',
    status,
    proposal: {
      kind: 'edit' as const,
      path: 'posts/etags.md',
      summary: 'Make it shorter',
      before: 'ETags let a server tell versions apart quickly.',
      after: 'ETags tell two versions apart.',
      ...proposal,
    },
  }
}

const button = (wrapper: ReturnType<typeof mount>, name: string) => wrapper.findAll('button').find((candidate) => candidate.text() === name)

describe('ApprovalCard', () => {
  it("an agent's card takes an optional reason for a rejection; a recipe's card has no such field", async () => {
    const agentCard = mount(ApprovalCard, { props: { message: approval({ askReason: true }), live: true } })
    await agentCard.get('input[aria-label^="Why not?"]').setValue('  keep my wording  ')
    await button(agentCard, 'Reject')!.trigger('click')
    expect(agentCard.emitted('decide')).toEqual([[{ action: 'reject', reason: 'keep my wording' }]])
    const bare = mount(ApprovalCard, { props: { message: approval({ askReason: true }), live: true } })
    await button(bare, 'Reject')!.trigger('click')
    expect(bare.emitted('decide')).toEqual([[{ action: 'reject' }]])
    expect(mount(ApprovalCard, { props: { message: approval(), live: true } }).find('input').exists()).toBe(false)
  })

  it('names the change and the page, and shows a word-level diff', () => {
    const wrapper = mount(ApprovalCard, { props: { message: approval(), live: true } })
    expect(wrapper.get('[data-testid="metablog-approval"]').attributes('aria-label')).toBe('Edit: posts/etags.md')
    expect(wrapper.text()).toContain('Make it shorter')
    expect(wrapper.findAll('del').map((node) => node.text()).join(' ')).toContain('let a server')
    expect(wrapper.findAll('del').map((node) => node.text()).join(' ')).toContain('quickly')
    expect(wrapper.findAll('ins').map((node) => node.text()).join(' ')).toContain('two')
    // Unchanged words are plain text.
    expect(wrapper.get('.text').text()).toContain('ETags')
    expect(wrapper.findAll('del').some((node) => node.text().includes('ETags'))).toBe(false)
  })

  it('shows what was made inert in the model’s text, and nothing when there was none', () => {
    const warned = mount(ApprovalCard, { props: { message: approval({ warning: 'The model\'s text had HTML tags; it was made inert.' }), live: true } })
    expect(warned.get('[data-testid="metablog-approval-warning"]').text()).toBe('The model\'s text had HTML tags; it was made inert.')
    const plain = mount(ApprovalCard, { props: { message: approval(), live: true } })
    expect(plain.find('[data-testid="metablog-approval-warning"]').exists()).toBe(false)
  })

  it('folds long unchanged text around the change, and shows everything on request', async () => {
    const long = 'Lorem ipsum dolor sit amet. '.repeat(40)
    const wrapper = mount(ApprovalCard, { props: { message: approval({ before: `${long}old words ${long}`, after: `${long}new words ${long}` }), live: true } })
    expect(wrapper.find('.gap').exists()).toBe(true)
    await button(wrapper, 'Show everything')!.trigger('click')
    expect(wrapper.find('.gap').exists()).toBe(false)
  })

  it('accepts and rejects', async () => {
    const wrapper = mount(ApprovalCard, { props: { message: approval(), live: true } })
    await button(wrapper, 'Accept')!.trigger('click')
    await button(wrapper, 'Reject')!.trigger('click')
    expect(wrapper.emitted('decide')).toEqual([[{ action: 'accept' }], [{ action: 'reject' }]])
  })

  it('lets the author edit the proposed text before accepting it', async () => {
    const wrapper = mount(ApprovalCard, { props: { message: approval(), live: true }, attachTo: document.body })
    await button(wrapper, 'Edit')!.trigger('click')
    const editor = wrapper.get('textarea[aria-label="Edited text"]')
    expect((editor.element as HTMLTextAreaElement).value).toBe('ETags tell two versions apart.')
    expect(document.activeElement).toBe(editor.element)
    await editor.setValue('ETags tell any two versions apart.')
    await button(wrapper, 'Accept edited')!.trigger('click')
    expect(wrapper.emitted('decide')).toEqual([[{ action: 'accept', after: 'ETags tell any two versions apart.' }]])
    wrapper.unmount()
  })

  it('cancelling an edit brings the diff back', async () => {
    const wrapper = mount(ApprovalCard, { props: { message: approval(), live: true } })
    await button(wrapper, 'Edit')!.trigger('click')
    await button(wrapper, 'Cancel')!.trigger('click')
    expect(wrapper.find('textarea').exists()).toBe(false)
    expect(wrapper.find('[data-testid="metablog-diff"]').exists()).toBe(true)
    expect(wrapper.emitted('decide')).toBeUndefined()
  })

  it('a deletion has no Edit button, and its red button says Delete', () => {
    const wrapper = mount(ApprovalCard, { props: { message: approval({ kind: 'delete', before: 'The page', after: '' }), live: true } })
    expect(button(wrapper, 'Edit')).toBeUndefined()
    expect(button(wrapper, 'Accept')).toBeUndefined()
    expect(button(wrapper, 'Delete')!.classes()).toContain('mb-button--danger')
    expect(wrapper.text()).toContain('Delete page')
  })

  it('shows the outcome instead of buttons once decided', () => {
    const accepted = mount(ApprovalCard, { props: { message: approval({}, 'accepted'), live: false } })
    expect(accepted.text()).toContain('Accepted')
    expect(accepted.findAll('button').filter((candidate) => ['Accept', 'Reject', 'Edit'].includes(candidate.text()))).toHaveLength(0)
    const rejected = mount(ApprovalCard, { props: { message: approval({}, 'rejected'), live: false } })
    expect(rejected.text()).toContain('Rejected')
  })

  it('a card whose task is gone says it was not applied and offers nothing', () => {
    const wrapper = mount(ApprovalCard, { props: { message: { ...approval(), interrupted: true }, live: false } })
    expect(wrapper.get('[data-testid="metablog-approval"]').attributes('data-status')).toBe('interrupted')
    expect(wrapper.text()).toContain('Not applied')
    expect(button(wrapper, 'Accept')).toBeUndefined()
  })
})

describe('ApprovalCard and the keyboard', () => {
  /** A stand-in for the panel: a dialog with a message box, a button, and a place for the card. */
  function panelWith(focused: 'textarea' | 'button') {
    const dialog = document.createElement('section')
    dialog.setAttribute('role', 'dialog')
    dialog.innerHTML = '<div class="slot"></div><button type="button">Stop</button><textarea aria-label="Message MetaBlog"></textarea>'
    document.body.append(dialog)
    const target = dialog.querySelector<HTMLElement>(focused)!
    target.focus()
    return { dialog, slot: dialog.querySelector<HTMLElement>('.slot')!, target }
  }

  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('leaves the keyboard in the message box when a card appears while the author types', () => {
    const { slot, target } = panelWith('textarea')
    const wrapper = mount(ApprovalCard, { props: { message: approval({ kind: 'delete', path: 'posts/old.md', before: 'Old', after: '' }), live: true }, attachTo: slot })
    expect(document.activeElement).toBe(target)
    wrapper.unmount()
  })

  it('announces a live card instead of taking the keyboard', () => {
    const { slot } = panelWith('textarea')
    const wrapper = mount(ApprovalCard, { props: { message: approval({ kind: 'delete', path: 'posts/old.md', before: 'Old', after: '' }), live: true }, attachTo: slot })
    expect(wrapper.get('[role="alert"]').text()).toBe('Your decision is needed: Delete page posts/old.md')
    wrapper.unmount()
    const settled = mount(ApprovalCard, { props: { message: approval({}, 'accepted'), live: false } })
    expect(settled.find('[role="alert"]').exists()).toBe(false)
  })

  it('never puts the keyboard on Accept for a deletion: Reject gets it', () => {
    const { slot } = panelWith('button')
    const wrapper = mount(ApprovalCard, { props: { message: approval({ kind: 'delete', path: 'posts/old.md', before: 'Old', after: '' }), live: true }, attachTo: slot })
    expect(document.activeElement).toBe(button(wrapper, 'Reject')!.element)
    wrapper.unmount()
  })

  it('offers Accept to the keyboard for an edit when the author is not typing', () => {
    const { slot } = panelWith('button')
    const wrapper = mount(ApprovalCard, { props: { message: approval(), live: true }, attachTo: slot })
    expect(document.activeElement).toBe(button(wrapper, 'Accept')!.element)
    wrapper.unmount()
  })

  it('Escape in the editor cancels the edit and does not reach the panel', async () => {
    const { dialog, slot } = panelWith('button')
    const panelSawEscape = vi.fn()
    dialog.addEventListener('keydown', panelSawEscape)
    const wrapper = mount(ApprovalCard, { props: { message: approval(), live: true }, attachTo: slot })
    await button(wrapper, 'Edit')!.trigger('click')
    const editor = wrapper.get('textarea[aria-label="Edited text"]')
    await editor.setValue('My own words')
    const escape = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true })
    editor.element.dispatchEvent(escape)
    await flushPromises()
    expect(escape.defaultPrevented).toBe(true)
    expect(panelSawEscape).not.toHaveBeenCalled()
    expect(wrapper.find('textarea').exists()).toBe(false)
    expect(wrapper.find('[data-testid="metablog-diff"]').exists()).toBe(true)
    expect(document.activeElement).toBe(button(wrapper, 'Accept')!.element)
    expect(wrapper.emitted('decide')).toBeUndefined()
    wrapper.unmount()
  })
})

describe('ConflictCard', () => {
  const conflict = { id: 'conflict-1', kind: 'conflict' as const, taskId: 'task-1', path: 'posts/etags.md', summary: 'posts/etags.md changed while this edit waited.', status: 'pending' as const }

  it('offers Re-apply and Drop', async () => {
    const wrapper = mount(ConflictCard, { props: { message: conflict, live: true } })
    expect(wrapper.text()).toContain('changed while this edit waited')
    await button(wrapper, 'Re-apply')!.trigger('click')
    await button(wrapper, 'Drop')!.trigger('click')
    expect(wrapper.emitted('decide')).toEqual([['reapply'], ['drop']])
  })

  it('shows how it was resolved', () => {
    const wrapper = mount(ConflictCard, { props: { message: { ...conflict, status: 'drop' as const }, live: false } })
    expect(wrapper.text()).toContain('Dropped')
    expect(button(wrapper, 'Re-apply')).toBeUndefined()
  })
})

describe('ErrorCard', () => {
  const error = { id: 'error-1', kind: 'error' as const, code: 'ERR_LLM_TIMEOUT', message: 'The model did not answer in time.', retryText: '/ask etags' }

  it('shows the message and the code, and retries', async () => {
    const wrapper = mount(ErrorCard, { props: { message: error, canRetry: true } })
    expect(wrapper.text()).toContain('The model did not answer in time.')
    expect(wrapper.text()).toContain('ERR_LLM_TIMEOUT')
    await button(wrapper, 'Retry')!.trigger('click')
    expect(wrapper.emitted('retry')).toHaveLength(1)
  })

  it('has no Retry without a request to repeat, and a disabled one while a task runs', () => {
    expect(button(mount(ErrorCard, { props: { message: { ...error, retryText: undefined }, canRetry: true } }), 'Retry')).toBeUndefined()
    expect(button(mount(ErrorCard, { props: { message: error, canRetry: false } }), 'Retry')!.attributes('disabled')).toBeDefined()
  })

  it('an accepted card says what became of the write, not just "Accepted"', () => {
    const label = (written?: string) => {
      const card = mount(ApprovalCard, { props: { message: { ...approval({}, 'accepted'), written } as never, live: false } })
      return [card.get('[data-testid="metablog-approval-outcome"]').text(), card.attributes('data-outcome')]
    }
    expect(label()).toEqual(['Accepted', 'accepted'])
    expect(label('conflict')).toEqual(['Not applied: posts/etags.md changed meanwhile', 'conflict'])
    expect(label('reapplied')).toEqual(['Accepted and re-applied to the current text', 'reapplied'])
    expect(label('dropped')).toEqual(['Not applied: you kept the newer text', 'dropped'])
    expect(label('failed')).toEqual(['Not applied: the write failed (see below)', 'failed'])
    expect(label('undone')).toEqual(['Undone: the page is back as it was', 'undone'])
  })

  it('offers Undo on an applied card only when the panel can undo it, and shows why an Undo failed', async () => {
    const plain = mount(ApprovalCard, { props: { message: approval({}, 'accepted'), live: false } })
    expect(button(plain, 'Undo')).toBeUndefined()
    const undoable = mount(ApprovalCard, { props: { message: approval({}, 'accepted'), live: false, undoable: true, undo: { busy: false, problem: 'posts/etags.md changed after this change was applied.' } } })
    await button(undoable, 'Undo')!.trigger('click')
    expect(undoable.emitted('undo')).toHaveLength(1)
    expect(undoable.get('[data-testid="metablog-undo-problem"]').text()).toContain('changed after this change was applied')
  })
})
