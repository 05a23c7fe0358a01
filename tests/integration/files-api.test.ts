import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type DevServer } from '../helpers/dev-server.js'

let dev: DevServer

beforeAll(async () => {
  dev = await startDevServer()
})

afterAll(async () => {
  await dev?.close()
})

describe('files API on the real dev server', () => {
  it('reads a page with its hash as ETag', async () => {
    const response = await dev.api('/files?path=guide/getting-started.md')
    expect(response.status).toBe(200)
    expect(response.json.path).toBe('guide/getting-started.md')
    expect(response.json.content).toContain('# Getting Started')
    expect(response.json.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(response.headers.get('etag')).toBe(`"${response.json.hash}"`)
  })
})
