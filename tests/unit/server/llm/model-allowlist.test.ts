import { describe, expect, it } from 'vitest'
import { createModelAllowList } from '../../../../server/llm/model-allowlist.js'

function setup(listing: () => Promise<readonly string[] | null>, known: string[] = ['gpt-4o-mini']) {
  let clock = 0
  let calls = 0
  const allowList = createModelAllowList({
    known: () => known,
    list: () => {
      calls++
      return listing()
    },
    now: () => clock,
  })
  return { allowList, advance: (ms: number) => (clock += ms), calls: () => calls }
}

const refused = { code: 'ERR_LLM_MODEL_NOT_ALLOWED' }

describe('the model allow-list', () => {
  it('lets the known models through without asking the provider', async () => {
    const { allowList, calls } = setup(async () => ['other'], ['gpt-4o-mini', 'deepseek-chat'])
    await allowList.check('gpt-4o-mini')
    await allowList.check('DeepSeek-Chat')
    expect(calls()).toBe(0)
  })

  it('asks the provider once for an unknown model and then trusts its list for a while', async () => {
    const { allowList, calls, advance } = setup(async () => ['alpha', 'beta'])
    await allowList.check('alpha')
    await expect(allowList.check('o1-pro')).rejects.toMatchObject(refused)
    await expect(allowList.check('o1-pro')).rejects.toMatchObject(refused)
    await allowList.check('beta')
    expect(calls()).toBe(1)
    advance(11 * 60_000)
    await expect(allowList.check('o1-pro')).rejects.toMatchObject(refused)
    expect(calls()).toBe(2)
  })

  it('refuses unknown models when the provider cannot list, retrying the listing only after a pause', async () => {
    const { allowList, calls, advance } = setup(async () => {
      throw new Error('404')
    })
    await expect(allowList.check('anything')).rejects.toMatchObject(refused)
    await expect(allowList.check('anything')).rejects.toMatchObject(refused)
    expect(calls()).toBe(1)
    advance(61_000)
    await expect(allowList.check('anything')).rejects.toMatchObject(refused)
    expect(calls()).toBe(2)
  })

  it('shares one listing between concurrent requests', async () => {
    let release!: (models: string[]) => void
    const { allowList, calls } = setup(() => new Promise((resolve) => (release = resolve)))
    const checks = [allowList.check('alpha'), allowList.check('alpha'), allowList.check('nope')]
    release(['alpha'])
    const results = await Promise.allSettled(checks)
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected'])
    expect(calls()).toBe(1)
  })

  it('takes the list GET /llm/models fetched, and does not trim names', async () => {
    const { allowList, calls } = setup(async () => [])
    allowList.remember(['alpha'])
    await allowList.check('alpha')
    await expect(allowList.check('alpha ')).rejects.toMatchObject(refused)
    expect(calls()).toBe(0)
  })
})
