import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai'
import { describe, expect, it } from 'vitest'
import { MetaBlogError } from '../../../../server/errors.js'
import { StreamCutError, judgeFailure, redactSecrets, toContractError, type FailureContext } from '../../../../server/llm/errors.js'

const KEY = 'sk-unit-secret-0123456789'
const context: FailureContext = { host: 'api.example.com', baseURL: 'https://api.example.com/v1', model: 'gpt-x', secrets: [KEY] }

function statusError(status: number, message: string, headers: Record<string, string> = {}, code: string | null = null): APIError {
  return APIError.generate(status, { error: { message, type: 'x', code } }, undefined, new Headers(headers))
}

describe('redactSecrets', () => {
  it('removes the key, bearer tokens and key-shaped strings', () => {
    expect(redactSecrets(`bad key ${KEY}!`, [KEY])).toBe('bad key [redacted]!')
    expect(redactSecrets('Authorization: Bearer abc.def-ghi', [])).toBe('Authorization: Bearer [redacted]')
    expect(redactSecrets('Incorrect API key provided: sk-proj-abcdefgh1234', [])).toBe('Incorrect API key provided: sk-[redacted]')
    expect(redactSecrets('nothing secret here', [KEY])).toBe('nothing secret here')
    expect(redactSecrets(redactSecrets('(you sent Bearer abc123).', []), [])).toBe('(you sent Bearer [redacted]).')
  })
})

describe('judgeFailure', () => {
  it('retries 429, 5xx, connection failures and cut streams, nothing else', () => {
    expect(judgeFailure(statusError(429, 'slow down', { 'retry-after': '2' }))).toEqual({ retryable: true, retryAfterMs: 2000 })
    expect(judgeFailure(statusError(503, 'overloaded'))).toEqual({ retryable: true, retryAfterMs: undefined })
    expect(judgeFailure(new APIConnectionError({ message: 'Connection error.' }))).toEqual({ retryable: true })
    expect(judgeFailure(new StreamCutError(new Error('terminated')))).toEqual({ retryable: true })
    expect(judgeFailure(new APIConnectionTimeoutError())).toEqual({ retryable: false })
    expect(judgeFailure(statusError(401, 'bad key'))).toEqual({ retryable: false })
    expect(judgeFailure(statusError(400, 'bad request'))).toEqual({ retryable: false })
    expect(judgeFailure(statusError(429, 'no money', {}, 'insufficient_quota'))).toEqual({ retryable: false })
  })
})

describe('toContractError', () => {
  it('maps upstream auth failures to ERR_LLM_AUTH and never repeats the key', () => {
    const error = toContractError(statusError(401, `Incorrect API key provided: ${KEY}`), context)
    expect(error).toBeInstanceOf(MetaBlogError)
    expect(error.code).toBe('ERR_LLM_AUTH')
    expect(error.message).toContain('api.example.com')
    expect(error.message).toContain('OPENAI_API_KEY')
    expect(error.message).not.toContain(KEY)
  })

  it('maps 429 to ERR_LLM_RATE_LIMIT, saying how long the provider asks to wait', () => {
    const error = toContractError(statusError(429, 'Rate limit reached', { 'retry-after': '30' }), context)
    expect(error.code).toBe('ERR_LLM_RATE_LIMIT')
    expect(error.message).toContain('asks to wait 30 s')
    expect(toContractError(statusError(429, 'quota', {}, 'insufficient_quota'), context)).toMatchObject({ code: 'ERR_LLM_QUOTA', message: expect.stringContaining('no balance or quota left') })
  })

  it('maps 4xx to ERR_LLM_BAD_REQUEST, a 404 for the model to ERR_LLM_MODEL naming it, other 404s naming the base URL', () => {
    const notFound = toContractError(statusError(404, 'The model `gpt-x` does not exist'), context)
    expect(notFound.code).toBe('ERR_LLM_MODEL')
    expect(notFound.message).toContain('does not serve the model "gpt-x"')
    expect(notFound.message).toContain('Pick another model: set METABLOG_MODEL')
    const noRoute = toContractError(statusError(404, 'Not found'), context)
    expect(noRoute).toMatchObject({ code: 'ERR_LLM_BAD_REQUEST', message: expect.stringContaining('OPENAI_BASE_URL (it usually ends in /v1)') })
    expect(toContractError(statusError(400, 'messages is required'), context)).toMatchObject({ code: 'ERR_LLM_BAD_REQUEST' })
  })

  it('maps an empty balance (402) to ERR_LLM_QUOTA and a too-long request to ERR_LLM_CONTEXT', () => {
    expect(toContractError(statusError(402, 'Insufficient Balance'), context)).toMatchObject({ code: 'ERR_LLM_QUOTA', message: expect.stringContaining('Add credit') })
    const long = toContractError(statusError(400, "This model's maximum context length is 65536 tokens."), context)
    expect(long).toMatchObject({ code: 'ERR_LLM_CONTEXT', message: expect.stringContaining('Compact or clear the conversation') })
    expect(toContractError(statusError(400, 'too long', {}, 'context_length_exceeded'), context).code).toBe('ERR_LLM_CONTEXT')
  })

  it('maps 5xx, cut streams, timeouts and unreachable hosts', () => {
    expect(toContractError(statusError(500, 'oops'), context)).toMatchObject({ code: 'ERR_LLM_UPSTREAM' })
    expect(toContractError(new StreamCutError(new Error('terminated')), context)).toMatchObject({ code: 'ERR_LLM_UPSTREAM' })
    expect(toContractError(new APIConnectionTimeoutError(), context)).toMatchObject({ code: 'ERR_LLM_TIMEOUT' })
    const cause = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })
    const unreachable = toContractError(new APIConnectionError({ message: 'Connection error.', cause }), context)
    expect(unreachable.code).toBe('ERR_LLM_UNREACHABLE')
    expect(unreachable.message).toContain('api.example.com (ECONNREFUSED)')
    const local = toContractError(new APIConnectionError({ message: 'Connection error.' }), { ...context, baseURL: 'http://127.0.0.1:11434/v1' })
    expect(local.message).toContain('ollama serve')
  })

  it('redacts anything unexpected', () => {
    const error = toContractError(new Error(`weird failure with ${KEY}`), context)
    expect(error.code).toBe('ERR_LLM_UPSTREAM')
    expect(error.message).not.toContain(KEY)
  })
})
