import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { readJsonBody, sendError } from '../../../../server/http.js'
import { createLlmGateway, type LlmOptions } from '../../../../server/llm/gateway.js'

const KEY = 'sk-relay-unit-secret-77'
const closers: (() => Promise<void>)[] = []

afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** An upstream that sends the headers and half of a non-streamed answer, then drops the connection. */
async function cuttingUpstream(): Promise<{ baseURL: string; requests: () => number }> {
  let requests = 0
  const baseURL = await listen((request, response) => {
    requests++
    request.resume()
    const body = JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'a long answer' } }] })
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) })
    response.write(body.slice(0, 20), () => response.socket?.destroy())
  })
  return { baseURL: `${baseURL}/v1`, requests: () => requests }
}

async function gatewayServer(llm: LlmOptions, logs: string[]) {
  const gateway = createLlmGateway({ llm: { apiKey: KEY, model: 'm', ollama: false, retry: { baseDelayMs: 5, maxDelayMs: 10 }, ...llm }, envDir: '/nonexistent', log: (line) => logs.push(line), env: {} })
  closers.push(async () => gateway.close())
  const url = await listen(async (request, response) => {
    try {
      await gateway.chatCompletions(await readJsonBody(request), response)
    } catch (error) {
      sendError(response, error)
    }
  })
  return { gateway, url }
}

describe('relay', () => {
  it('does not ask again for a non-streamed answer cut after its body began', async () => {
    const upstream = await cuttingUpstream()
    const { url } = await gatewayServer({ baseURL: upstream.baseURL }, [])
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: 'Hi' }] }) })
    expect(response.status).toBe(502)
    expect((await response.json()).error.code).toBe('ERR_LLM_UPSTREAM')
    expect(upstream.requests()).toBe(1)
  })
})

describe('the gateway’s redaction', () => {
  it('removes the key and the base URL’s user info and query values', async () => {
    const logs: string[] = []
    const { gateway } = await gatewayServer({ baseURL: 'https://alice:url-password@api.example.com/v1?api-key=query-secret' }, logs)
    const text = gateway.redactSecrets(`failed ${KEY} at https://alice:url-password@api.example.com/v1?api-key=query-secret`)
    for (const secret of [KEY, 'url-password', 'query-secret', 'alice']) expect(text).not.toContain(secret)
    expect(text).toContain('api.example.com')
  })
})
