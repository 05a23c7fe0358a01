import { describe, expect, it } from 'vitest'
import { DevActivity } from '../../../plugin/dev-activity.js'

const settled = async (promise: Promise<unknown>, withinMs = 30) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), withinMs))])

describe('DevActivity', () => {
  it('tells when the server has answered its first request, and when it has sent its first page module', async () => {
    const activity = new DevActivity()
    const html = activity.requestStarted('/posts/hello')
    expect(await settled(activity.loadMayStart)).toBe(false)
    html()
    expect(await settled(activity.loadMayStart)).toBe(true)
    expect(await settled(activity.firstPage)).toBe(false)
    activity.requestStarted('/@fs/site/theme/index.ts')()
    expect(await settled(activity.firstPage)).toBe(false)
    const page = activity.requestStarted('/posts/hello.md?import&t=1')
    expect(await settled(activity.firstPage)).toBe(false)
    page()
    expect(await settled(activity.firstPage)).toBe(true)
  })

  it('lets background loading start with the first answer, or when told to', async () => {
    const answered = new DevActivity()
    expect(await settled(answered.loadMayStart)).toBe(false)
    answered.requestStarted('/')()
    expect(await settled(answered.loadMayStart)).toBe(true)
    const told = new DevActivity()
    told.requestStarted('/still-going')
    told.allowLoad()
    expect(await settled(told.loadMayStart)).toBe(true)
    expect(await settled(told.firstPage)).toBe(false)
  })

  it('has a lull only once no request was answered for a while', async () => {
    const activity = new DevActivity()
    // Never asked anything: a lull at once.
    expect(await settled(activity.lull())).toBe(true)
    const done = activity.requestStarted('/a.js')
    const lull = activity.lull()
    expect(await settled(lull, 250)).toBe(false)
    const endedAt = performance.now()
    done()
    await lull
    expect(performance.now() - endedAt).toBeGreaterThanOrEqual(190)
  })

  it('holds background work back while a request is answered, but not for ever', async () => {
    const activity = new DevActivity()
    const started = performance.now()
    const done = activity.requestStarted('/slow')
    await activity.quiet()
    expect(performance.now() - started).toBeGreaterThanOrEqual(240)
    done()
  })

  it('holds background slices back until a foreground load has settled, failed or not', async () => {
    const activity = new DevActivity()
    expect(await settled(activity.turn())).toBe(true)
    let finish = () => {}
    const loaded = activity.foreground(new Promise<string>((resolve) => (finish = () => resolve('routes'))))
    const turn = activity.turn()
    expect(await settled(turn, 100)).toBe(false)
    finish()
    expect(await loaded).toBe('routes')
    expect(await settled(turn)).toBe(true)
    const failed = activity.foreground(Promise.reject(new Error('no module')))
    await expect(failed).rejects.toThrow('no module')
    expect(await settled(activity.turn())).toBe(true)
  })
})
