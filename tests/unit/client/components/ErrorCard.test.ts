// @vitest-environment happy-dom
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import ErrorCard from '../../../../client/components/ErrorCard.vue'

const card = (code: string, message = 'The account has no balance or quota left. Add credit.') => mount(ErrorCard, { props: { message: { id: 'e1', kind: 'error', code, message }, canRetry: true } })

describe('ErrorCard', () => {
  it('heads a provider failure with what the author should do, and shows the code and the message', () => {
    const wrapper = card('ERR_LLM_QUOTA')
    expect(wrapper.get('[data-testid="metablog-error-advice"]').text()).toBe('Add credit to the account')
    expect(wrapper.get('[data-testid="metablog-error"]').attributes('data-code')).toBe('ERR_LLM_QUOTA')
    expect(wrapper.text()).toContain('Add credit.')
  })

  it('names the fix for each model failure, and stays generic for other codes', () => {
    expect(card('ERR_LLM_MODEL').text()).toContain('Pick another model')
    expect(card('ERR_LLM_CONTEXT').text()).toContain('shorten or compact')
    expect(card('ERR_LLM_NO_TOOLS').text()).toContain('use a recipe')
    expect(card('ERR_MODEL_OUTPUT').text()).toContain('did not write what was asked')
    expect(card('ERR_STALE').text()).toContain('Something went wrong')
  })
})
