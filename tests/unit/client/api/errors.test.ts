import { describe, expect, it } from 'vitest'
import { ApiError, ClientError, LlmError, SkillError, errorCode } from '../../../../client/api/errors'
import { LlmError as LlmErrorAlias } from '../../../../client/api/llm-error'
import { ApiError as ApiErrorAlias } from '../../../../client/api/metablog-api'

describe('client errors', () => {
  it('are one class with a code, named for where they come from', () => {
    const errors = [new ApiError('ERR_STALE', 'Changed.', 412, { currentHash: 'h' }), new LlmError('ERR_LLM_RATE_LIMIT', 'Slow down.', 429), new SkillError('ERR_NO_PAGE', 'Open a page.')]
    expect(errors.map((error) => [error instanceof ClientError, error.name, error.code])).toEqual([
      [true, 'ApiError', 'ERR_STALE'],
      [true, 'LlmError', 'ERR_LLM_RATE_LIMIT'],
      [true, 'SkillError', 'ERR_NO_PAGE'],
    ])
    expect(errors[0]!.details.currentHash).toBe('h')
    expect(ApiErrorAlias).toBe(ApiError)
    expect(LlmErrorAlias).toBe(LlmError)
  })

  it('errorCode reads string codes only: a DOMException’s legacy number is not a code', () => {
    expect(errorCode(new SkillError('ERR_X', 'x'))).toBe('ERR_X')
    expect(errorCode(Object.assign(new Error('x'), { code: 'ERR_NOT_FOUND' }))).toBe('ERR_NOT_FOUND')
    expect(new DOMException('Stuck.', 'TimeoutError').code).toBe(23)
    expect(errorCode(new DOMException('Stuck.', 'TimeoutError'))).toBeUndefined()
    expect(errorCode(null)).toBeUndefined()
    expect(errorCode('ERR_X')).toBeUndefined()
  })
})
