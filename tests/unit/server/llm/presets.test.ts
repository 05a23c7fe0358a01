import { describe, expect, it } from 'vitest'
import { configFromSettings, readSettings } from '../../../../server/llm/config.js'
import { PROVIDER_PRESETS, modelPreset, providerOfURL } from '../../../../server/llm/presets.js'
import { DEFAULT_PRICES } from '../../../../server/llm/prices.js'

describe('provider presets', () => {
  it('covers the providers authors use, each with a base URL and a fallback', () => {
    for (const id of ['openai', 'deepseek', 'qwen', 'moonshot', 'openrouter', 'ollama', 'lmstudio'] as const) {
      expect(PROVIDER_PRESETS[id].baseURL).toMatch(/^https?:\/\//)
      expect(PROVIDER_PRESETS[id].fallback.contextWindow).toBeGreaterThan(0)
    }
  })

  it('prices every hosted model it lists (OpenRouter through its vendor prefix)', () => {
    for (const id of ['openai', 'deepseek', 'moonshot'] as const) {
      for (const model of Object.keys(PROVIDER_PRESETS[id].models)) expect(DEFAULT_PRICES[model], model).toBeDefined()
    }
  })

  it('finds a model by name, without a vendor prefix, an Ollama tag or a snapshot date', () => {
    expect(modelPreset('openai', 'gpt-4o-mini-2024-07-18')).toMatchObject({ contextWindow: 128_000, tools: true, known: true })
    expect(modelPreset('deepseek', 'deepseek-reasoner')).toMatchObject({ reasoning: true, tools: false })
    expect(modelPreset('ollama', 'qwen3:8b')).toMatchObject({ reasoning: true, known: true })
    // Not listed: tried with tools, and a refusal teaches the gateway (see gateway.test).
    expect(modelPreset('ollama', 'some-new-model')).toMatchObject({ tools: true, known: false })
    expect(modelPreset('ollama', 'gemma2:2b')).toMatchObject({ tools: false, known: true })
  })

  it('lets the author override a model or add one', () => {
    expect(modelPreset('ollama', 'llama3.1:8b', { 'llama3.1': { contextWindow: 32_768 } })).toMatchObject({ contextWindow: 32_768, tools: true })
    expect(modelPreset('lmstudio', 'my-model', { 'my-model': { contextWindow: 16_000, tools: true } })).toMatchObject({ contextWindow: 16_000, tools: true, known: true })
  })

  it('tells providers apart by host and by the local servers’ ports', () => {
    expect(providerOfURL('https://openrouter.ai/api/v1')).toBe('openrouter')
    expect(providerOfURL('http://localhost:1234/v1')).toBe('lmstudio')
    expect(providerOfURL('http://127.0.0.1:11434/v1')).toBe('ollama')
    expect(providerOfURL('https://dashscope.aliyuncs.com/compatible-mode/v1')).toBe('qwen')
  })
})

describe('METABLOG_PROVIDER', () => {
  it('picks the preset’s base URL and default model', () => {
    const settings = readSettings({}, '/nonexistent', { METABLOG_PROVIDER: 'DeepSeek', OPENAI_API_KEY: 'sk-x' })
    expect(configFromSettings(settings, '/nonexistent')).toMatchObject({ configured: true, provider: 'deepseek', baseURL: 'https://api.deepseek.com/v1', model: 'deepseek-chat' })
  })

  it('needs no key for a local server, and refuses an unknown name with the list', () => {
    expect(configFromSettings(readSettings({}, '/nonexistent', { METABLOG_PROVIDER: 'lmstudio' }), '/nonexistent')).toMatchObject({ configured: true, provider: 'lmstudio', apiKey: null })
    const unknown = configFromSettings(readSettings({}, '/nonexistent', { METABLOG_PROVIDER: 'acme', OPENAI_API_KEY: 'sk-x' }), '/nonexistent')
    expect(unknown).toMatchObject({ configured: false, instructions: expect.stringContaining('openrouter') })
  })

  it('keeps an explicit base URL (a proxy) while naming the provider', () => {
    const settings = readSettings({ provider: 'deepseek', baseURL: 'https://proxy.example.com/v1', apiKey: 'sk-x' }, '/nonexistent', {})
    expect(configFromSettings(settings, '/nonexistent')).toMatchObject({ provider: 'deepseek', baseURL: 'https://proxy.example.com/v1', model: 'deepseek-chat' })
  })
})
