import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { configFromSettings, providerOf, readEnvFiles, readSettings, secretsOfURL } from '../../../../server/llm/config.js'

let envDir: string

beforeEach(async () => {
  envDir = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-env-'))
})

afterEach(async () => {
  await fs.rm(envDir, { recursive: true, force: true })
})

describe('readSettings', () => {
  it('reads .env beside the site, with .env.local and the mode files winning', async () => {
    await fs.writeFile(path.join(envDir, '.env'), 'OPENAI_API_KEY=sk-from-dotenv\nMETABLOG_MODEL=base-model\nOPENAI_BASE_URL=\n')
    await fs.writeFile(path.join(envDir, '.env.development.local'), 'METABLOG_MODEL=local-model\n')
    expect(readEnvFiles(envDir)).toMatchObject({ OPENAI_API_KEY: 'sk-from-dotenv', METABLOG_MODEL: 'local-model' })
    expect(readSettings({}, envDir, {})).toEqual({ apiKey: 'sk-from-dotenv', baseURL: undefined, model: 'local-model' })
  })

  it('lets the process environment win over .env, and options win over both', async () => {
    await fs.writeFile(path.join(envDir, '.env'), 'OPENAI_API_KEY=sk-from-dotenv\nOPENAI_BASE_URL=https://api.deepseek.com/v1\n')
    const env = { OPENAI_API_KEY: 'sk-from-env', METABLOG_MODEL: 'env-model' }
    expect(readSettings({}, envDir, env)).toEqual({ apiKey: 'sk-from-env', baseURL: 'https://api.deepseek.com/v1', model: 'env-model' })
    expect(readSettings({ apiKey: 'sk-option', baseURL: 'http://127.0.0.1:1234/v1/', model: 'option-model' }, envDir, env)).toEqual({
      apiKey: 'sk-option',
      baseURL: 'http://127.0.0.1:1234/v1',
      model: 'option-model',
    })
  })

  it('reads the .env files of the mode Vite runs in, not always development', async () => {
    await fs.writeFile(path.join(envDir, '.env.development'), 'METABLOG_MODEL=development-model\n')
    await fs.writeFile(path.join(envDir, '.env.staging'), 'METABLOG_MODEL=staging-model\n')
    expect(readSettings({}, envDir, {}, 'staging').model).toBe('staging-model')
    expect(readSettings({}, envDir, {}).model).toBe('development-model')
  })

  it('starts without any .env file', () => {
    expect(readSettings({}, path.join(envDir, 'missing'), {})).toEqual({ apiKey: undefined, baseURL: undefined, model: undefined })
  })
})

describe('configFromSettings', () => {
  it('is null when nothing is set, so the caller may look for Ollama', () => {
    expect(configFromSettings({}, envDir)).toBeNull()
  })

  it('defaults to OpenAI and its cheap model when only a key is set', () => {
    expect(configFromSettings({ apiKey: 'sk-x' }, envDir)).toEqual({
      configured: true,
      provider: 'openai',
      baseURL: 'https://api.openai.com/v1',
      apiKey: 'sk-x',
      model: 'gpt-4o-mini',
    })
  })

  it('knows the providers authors use and their default models', () => {
    expect(providerOf('https://api.deepseek.com/v1')).toBe('deepseek')
    expect(providerOf('https://dashscope.aliyuncs.com/compatible-mode/v1')).toBe('qwen')
    expect(providerOf('https://dashscope-intl.aliyuncs.com/compatible-mode/v1')).toBe('qwen')
    expect(providerOf('https://api.moonshot.cn/v1')).toBe('moonshot')
    expect(providerOf('http://127.0.0.1:11434/v1')).toBe('ollama')
    expect(providerOf('https://example.com/v1')).toBe('openai-compatible')
    expect(configFromSettings({ apiKey: 'sk-x', baseURL: 'https://api.deepseek.com/v1' }, envDir)).toMatchObject({ model: 'deepseek-chat' })
    expect(configFromSettings({ apiKey: 'sk-x', baseURL: 'https://example.com/v1' }, envDir)).toMatchObject({ model: null })
  })

  it('needs no key for a server on this machine', () => {
    expect(configFromSettings({ baseURL: 'http://localhost:8080/v1', model: 'm' }, envDir)).toMatchObject({ configured: true, apiKey: null })
  })

  it('explains what is missing for a remote server without a key, or a bad URL', () => {
    const noKey = configFromSettings({ baseURL: 'https://api.deepseek.com/v1' }, envDir)
    expect(noKey).toMatchObject({ configured: false })
    expect(noKey && !noKey.configured && noKey.instructions).toContain('points at api.deepseek.com but OPENAI_API_KEY is not set')
    expect(noKey && !noKey.configured && noKey.instructions).toContain(path.join(envDir, '.env'))
    const badURL = configFromSettings({ apiKey: 'sk-x', baseURL: 'api.deepseek.com' }, envDir)
    expect(badURL && !badURL.configured && badURL.instructions).toContain('is not an http(s) URL')
  })

  it('never echoes a base URL that may hold a key', () => {
    const pasted = configFromSettings({ apiKey: 'sk-x', baseURL: 'ftp://user:sk-pasted-secret@host/v1?key=query-secret' }, envDir)
    const instructions = pasted && !pasted.configured ? pasted.instructions : ''
    expect(instructions).toContain('is not an http(s) URL')
    expect(instructions).not.toContain('sk-pasted-secret')
    expect(instructions).not.toContain('query-secret')
  })
})

describe('secretsOfURL', () => {
  it('lists the user info and query values of a base URL, raw and decoded', () => {
    expect(secretsOfURL('https://alice:p%40ssword@api.example.com/v1?api-key=query-secret&v=1')).toEqual(
      expect.arrayContaining(['alice', 'p%40ssword', 'p@ssword', 'query-secret']),
    )
    expect(secretsOfURL('https://api.example.com/v1')).toEqual([])
    expect(secretsOfURL(undefined)).toEqual([])
  })
})
