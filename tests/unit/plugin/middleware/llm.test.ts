import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { llmMiddleware } from '../../../../plugin/middleware/llm.js'
import type { LlmGateway } from '../../../../server/llm/gateway.js'

const KEY = 'sk-middleware-secret-31'
let close: (() => Promise<void>) | null = null

afterEach(async () => {
  vi.restoreAllMocks()
  await close?.()
  close = null
})

/** The middleware on a plain server, over a gateway that fails before the relay with the key in its error. */
async function serve(): Promise<string> {
  const failing = () => Promise.reject(new Error(`config blew up for ${KEY} and https://alice:url-password@example.com`))
  const gateway: LlmGateway = {
    status: failing,
    chatCompletions: failing,
    testConnection: failing,
    close() {},
    redactSecrets: (text) => text.split(KEY).join('[redacted]').split('url-password').join('[redacted]'),
  }
  const [status, completions, test] = llmMiddleware(gateway)
  const server = http.createServer((request, response) => {
    void status!(request, response, () => void completions!(request, response, () => void test!(request, response, () => response.end())))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  close = () => new Promise((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('llmMiddleware', () => {
  it('redacts the answer and the logged stack of an error thrown outside the relay', async () => {
    const logged: string[] = []
    vi.spyOn(console, 'error').mockImplementation((message: string) => void logged.push(message))
    const url = await serve()
    for (const [route, method] of [['/llm/v1/chat/completions', 'POST'], ['/llm/status', 'GET'], ['/llm/test', 'POST']] as const) {
      const response = await fetch(`${url}${route}`, { method })
      const text = await response.text()
      expect(response.status).toBe(500)
      expect(text).not.toContain(KEY)
      expect(text).not.toContain('url-password')
    }
    expect(logged).toHaveLength(3)
    for (const line of logged) {
      expect(line).toContain('[redacted]')
      expect(line).not.toContain(KEY)
      expect(line).not.toContain('url-password')
    }
  })

  it('answers 405 with an Allow header', async () => {
    const url = await serve()
    const completions = await fetch(`${url}/llm/v1/chat/completions`)
    expect(completions.status).toBe(405)
    expect(completions.headers.get('allow')).toBe('POST')
    const status = await fetch(`${url}/llm/status`, { method: 'DELETE' })
    expect(status.status).toBe(405)
    expect(status.headers.get('allow')).toBe('GET')
  })
})
